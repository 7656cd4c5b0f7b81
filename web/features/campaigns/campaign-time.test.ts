// Times on the campaign pages are the company's wall clock, whatever the browser's time zone: the
// server reads scheduledAt ('YYYY-MM-DD HH:mm:ss') in the company's.
import { expect, test } from 'bun:test'
import { formatDateTime, toScheduledAt, toZonedInput } from './campaign-time.ts'

// 15:30 UTC is 12:30 in São Paulo (UTC-3) and 00:30 the next day in Tokyo (UTC+9).
const instant = '2026-11-26T15:30:00.000Z'

test("a stored instant is shown and edited on the company's clock, not the browser's", () => {
  expect(toZonedInput(instant, 'America/Sao_Paulo')).toBe('2026-11-26T12:30')
  expect(toZonedInput(instant, 'Asia/Tokyo')).toBe('2026-11-27T00:30')
  expect(formatDateTime(instant, 'America/Sao_Paulo')).toBe('26/11/2026 12:30')
  expect(formatDateTime(instant, 'Asia/Tokyo')).toBe('27/11/2026 00:30')
  expect(toZonedInput(null, 'UTC')).toBe('')
})

test('what the dialog sends is the wall clock it shows, in §9 form', () => {
  expect(toScheduledAt(toZonedInput(instant, 'America/Sao_Paulo'))).toBe('2026-11-26 12:30:00')
  expect(toScheduledAt('')).toBeNull()
})
