import { describe, expect, test } from 'bun:test'
import { AppError } from '../../core/errors.ts'
import { checkedRange, resolvePeriod, todayIn } from './period.ts'

describe('dashboard period', () => {
  test('days N is the last N days, today included', () => {
    expect(resolvePeriod({ days: 7 }, '2026-03-03')).toEqual({ from: '2026-02-25', to: '2026-03-03' })
    expect(resolvePeriod({ days: 1, date_from: '2026-01-01' }, '2026-03-03')).toEqual({ from: '2026-03-03', to: '2026-03-03' })
  })

  test('a missing date_from is the first of date_to’s month; a missing date_to is today', () => {
    expect(resolvePeriod({ date_to: '2026-02-14' }, '2026-03-03')).toEqual({ from: '2026-02-01', to: '2026-02-14' })
    expect(resolvePeriod({ date_from: '2026-02-10' }, '2026-03-03')).toEqual({ from: '2026-02-10', to: '2026-03-03' })
  })

  test('refuses no filter, impossible days, reversed and too long ranges', () => {
    for (const query of [{}, { date_from: '2026-02-30' }, { date_from: '2026-03-04', date_to: '2026-03-03' }, { date_from: '2024-01-01', date_to: '2026-01-01' }]) {
      expect(() => resolvePeriod(query, '2026-03-03')).toThrow(AppError)
    }
    expect(() => checkedRange({ from: 'a', to: 'b' }, { from: '2026-13-01', to: '2026-12-01' })).toThrow(AppError)
  })

  test('today is the company’s wall-clock day', () => {
    const instant = new Date('2026-03-04T02:00:00Z')
    expect(todayIn('America/Sao_Paulo', instant)).toBe('2026-03-03')
    expect(todayIn('UTC', instant)).toBe('2026-03-04')
  })
})
