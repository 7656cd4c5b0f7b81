import { describe, expect, test } from 'bun:test'
import { formatSlaDuration, keepDeadlines, slaTimerState } from './sla-timer-state.ts'

const at = (iso: string) => new Date(iso).getTime()
const ticket = { slaFirstResponseDueAt: '2026-03-02T12:10:00.000Z', slaResolutionDueAt: '2026-03-02T12:30:00.000Z', slaWarnAt: '2026-03-02T12:08:00.000Z' }

describe('the service-level timer', () => {
  test('first response while it runs: ok, near past the warning, breached past the deadline', () => {
    expect(slaTimerState(ticket, at('2026-03-02T12:00:00Z'))).toEqual({ target: 'firstResponse', level: 'ok', remainingMs: 600_000 })
    expect(slaTimerState(ticket, at('2026-03-02T12:09:00Z'))?.level).toBe('near')
    expect(slaTimerState(ticket, at('2026-03-02T12:11:00Z'))).toEqual({ target: 'firstResponse', level: 'breached', remainingMs: -60_000 })
  })

  test('then resolution; nothing without targets', () => {
    expect(slaTimerState({ ...ticket, slaFirstResponseDueAt: null, slaWarnAt: '2026-03-02T12:24:00Z' }, at('2026-03-02T12:20:00Z'))).toEqual({ target: 'resolution', level: 'ok', remainingMs: 600_000 })
    expect(slaTimerState({ slaFirstResponseDueAt: null, slaResolutionDueAt: null, slaWarnAt: null }, at('2026-03-02T12:20:00Z'))).toBeNull()
    expect(slaTimerState({}, 0)).toBeNull()
  })

  test('durations as the dashboard writes them', () => {
    expect(formatSlaDuration(65_000)).toBe('1m 05s')
    expect(formatSlaDuration(-(2 * 3600 + 5 * 60) * 1000)).toBe('2h 05m')
    expect(formatSlaDuration((3 * 86_400 + 4 * 3600) * 1000)).toBe('3d 4h')
  })

  test('a frame without deadlines (a stored message) keeps the known ones; one with them replaces them', () => {
    expect(keepDeadlines({ id: 1 } as { id: number; slaWarnAt?: string }, ticket)).toEqual({ id: 1, ...ticket })
    expect(keepDeadlines({ id: 1, slaFirstResponseDueAt: null as string | null, slaResolutionDueAt: null, slaWarnAt: null }, ticket)).toEqual({
      id: 1,
      slaFirstResponseDueAt: null,
      slaResolutionDueAt: null,
      slaWarnAt: null,
    })
  })
})
