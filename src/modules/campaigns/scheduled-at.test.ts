// parseScheduledAt (lifecycle.ts): §9's 'YYYY-MM-DD HH:mm:ss' in the company's zone, seconds optional.
import { expect, test } from 'bun:test'
import { parseScheduledAt } from './lifecycle.ts'

// A fuzzer found '2030-06-01 10:00' (no seconds, which the route's pattern allows) answered 500: the
// missing seconds became NaN and the date was invalid when stored.
test('seconds are optional: 10:00 is 10:00:00 in the company time zone', () => {
  const withoutSeconds = parseScheduledAt('2030-06-01 10:00', 'America/Sao_Paulo')
  expect(Number.isNaN(withoutSeconds.getTime())).toBe(false)
  expect(withoutSeconds.toISOString()).toBe('2030-06-01T13:00:00.000Z')
  expect(parseScheduledAt('2030-06-01 10:00:00', 'America/Sao_Paulo').getTime()).toBe(withoutSeconds.getTime())
  expect(parseScheduledAt('2030-06-01T10:00:30', 'America/Sao_Paulo').toISOString()).toBe('2030-06-01T13:00:30.000Z')
})
