import { expect, test } from 'bun:test'
import { formatTicketTime } from './ticket-time.ts'

test('HH:mm when the ticket moved today, dd/MM/yyyy otherwise (local time)', () => {
  const now = new Date(2026, 10, 22, 15, 0)
  expect(formatTicketTime(new Date(2026, 10, 22, 9, 5).toISOString(), now)).toBe('09:05')
  expect(formatTicketTime(new Date(2026, 10, 22, 0, 0).toISOString(), now)).toBe('00:00')
  expect(formatTicketTime(new Date(2026, 10, 21, 23, 59).toISOString(), now)).toBe('21/11/2026')
  expect(formatTicketTime(new Date(2025, 10, 22, 9, 5).toISOString(), now)).toBe('22/11/2025')
  expect(formatTicketTime('not a date', now)).toBe('')
})
