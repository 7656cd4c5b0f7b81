import { describe, expect, test } from 'bun:test'
import { addDays, addMonths, calendarDateOrNull, recurrenceMonths, renewedDueDate } from './renewal.ts'

describe('addMonths', () => {
  test('adds calendar months', () => {
    expect(addMonths('2025-03-15', 1)).toBe('2025-04-15')
    expect(addMonths('2025-11-30', 2)).toBe('2026-01-30')
    expect(addMonths('2025-01-01', 12)).toBe('2026-01-01')
  })

  test('clamps to the last day of a shorter month', () => {
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28')
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29')
    expect(addMonths('2025-03-31', 1)).toBe('2025-04-30')
    expect(addMonths('2025-08-31', 6)).toBe('2026-02-28')
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-28')
    expect(addMonths('2025-12-31', 2)).toBe('2026-02-28')
  })
})

describe('addDays', () => {
  test('crosses months and years', () => {
    expect(addDays('2025-02-27', 3)).toBe('2025-03-02')
    expect(addDays('2024-02-27', 3)).toBe('2024-03-01')
    expect(addDays('2025-12-30', 3)).toBe('2026-01-02')
  })
})

describe('renewedDueDate', () => {
  const today = '2025-06-10'

  test('each recurrence adds its months to a due date still ahead', () => {
    const dueDate = '2025-07-31'
    expect(recurrenceMonths).toEqual({ MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 })
    expect(renewedDueDate({ dueDate, recurrence: 'MENSAL', today })).toBe('2025-08-31')
    expect(renewedDueDate({ dueDate, recurrence: 'BIMESTRAL', today })).toBe('2025-09-30')
    expect(renewedDueDate({ dueDate, recurrence: 'TRIMESTRAL', today })).toBe('2025-10-31')
    expect(renewedDueDate({ dueDate, recurrence: 'SEMESTRAL', today })).toBe('2026-01-31')
    expect(renewedDueDate({ dueDate, recurrence: 'ANUAL', today })).toBe('2026-07-31')
  })

  test('an overdue company renews from its due date, not from today (the overdue days are not free)', () => {
    expect(renewedDueDate({ dueDate: '2025-06-01', recurrence: 'MENSAL', today })).toBe('2025-07-01')
    expect(renewedDueDate({ dueDate: '2025-01-31', recurrence: 'MENSAL', today })).toBe('2025-02-28')
    expect(renewedDueDate({ dueDate: today, recurrence: 'MENSAL', today })).toBe('2025-07-10')
  })

  test('a company without a due date renews from today', () => {
    expect(renewedDueDate({ dueDate: null, recurrence: 'TRIMESTRAL', today })).toBe('2025-09-10')
  })

  test('renewing on Jan 31 clamps to the end of February', () => {
    expect(renewedDueDate({ dueDate: '2026-01-31', recurrence: 'MENSAL', today: '2026-01-05' })).toBe('2026-02-28')
    expect(renewedDueDate({ dueDate: '2028-01-31', recurrence: 'MENSAL', today: '2028-01-05' })).toBe('2028-02-29')
  })
})

describe('calendarDateOrNull', () => {
  test('keeps a real date, and the date part of an ISO timestamp', () => {
    expect(calendarDateOrNull('2025-02-28')).toBe('2025-02-28')
    expect(calendarDateOrNull(' 2024-02-29 ')).toBe('2024-02-29')
    expect(calendarDateOrNull('2025-05-01T00:00:00.000Z')).toBe('2025-05-01')
  })

  test('empty or invalid becomes null', () => {
    for (const value of [undefined, null, '', '   ', 'tomorrow', '2025-02-30', '2025-13-01', '2025-1-5', '31/01/2025', '0999-01-01', '9999-12-31', '2025-02-28x']) {
      expect(calendarDateOrNull(value)).toBeNull()
    }
  })
})
