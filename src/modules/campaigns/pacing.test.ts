import { describe, expect, test } from 'bun:test'
import { dailyCapFor, nextWindowOpening, pacedDurationMs, startOfLocalDay, waitBeforeSendMs } from './pacing.ts'
import { DEFAULT_CAMPAIGN_SETTINGS, isStopWord, checkCampaignSettings } from './settings.ts'

const pacing = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, jitterPercent: 0 }

describe('pacing: the intervals are seconds', () => {
  test('no wait before the first send, messageInterval seconds after, greaterInterval after every longerIntervalAfter', () => {
    expect(waitBeforeSendMs(0, pacing)).toBe(0)
    expect(waitBeforeSendMs(1, pacing)).toBe(20_000)
    expect(waitBeforeSendMs(19, pacing)).toBe(20_000)
    expect(waitBeforeSendMs(20, pacing)).toBe(60_000)
    expect(waitBeforeSendMs(40, pacing)).toBe(60_000)
    expect(waitBeforeSendMs(5, { ...pacing, longerIntervalAfter: 0 })).toBe(20_000)
  })

  test('jitter stays within ± the percentage', () => {
    const withJitter = { ...pacing, jitterPercent: 30 }
    expect(waitBeforeSendMs(1, withJitter, () => 0)).toBe(14_000)
    expect(waitBeforeSendMs(1, withJitter, () => 1)).toBe(26_000)
    expect(waitBeforeSendMs(1, withJitter, () => 0.5)).toBe(20_000)
  })

  test('the estimate sums the same waits', () => {
    expect(pacedDurationMs(1, pacing)).toBe(0)
    expect(pacedDurationMs(3, pacing)).toBe(40_000)
    // 40 waits: 2 longer ones (after 20 and 40 sends) and 38 regular.
    expect(pacedDurationMs(41, pacing)).toBe(2 * 60_000 + 38 * 20_000)
  })
})

describe('sending window, in the company time zone', () => {
  const window = { enabled: true, start: '08:00', end: '20:00', weekdays: [1, 2, 3, 4, 5] }
  const zone = 'America/Sao_Paulo' // UTC-3

  test('open inside the hours of an allowed weekday', () => {
    const wednesdayNoon = new Date('2026-11-25T15:00:00Z') // 12:00 in São Paulo
    expect(nextWindowOpening(wednesdayNoon, zone, window)).toEqual(wednesdayNoon)
  })

  test('before the start: opens at the start the same day; after the end: the next allowed day', () => {
    expect(nextWindowOpening(new Date('2026-11-25T09:00:00Z'), zone, window)).toEqual(new Date('2026-11-25T11:00:00Z'))
    expect(nextWindowOpening(new Date('2026-11-25T23:30:00Z'), zone, window)).toEqual(new Date('2026-11-26T11:00:00Z'))
  })

  test('a Friday evening waits for Monday', () => {
    expect(nextWindowOpening(new Date('2026-11-27T23:30:00Z'), zone, window)).toEqual(new Date('2026-11-30T11:00:00Z'))
  })

  test('a window that is off is always open', () => {
    const at = new Date('2026-11-29T03:00:00Z')
    expect(nextWindowOpening(at, zone, { ...window, enabled: false })).toEqual(at)
  })

  test('the day starts at local midnight', () => {
    expect(startOfLocalDay(new Date('2026-11-25T02:00:00Z'), zone)).toEqual(new Date('2026-11-24T03:00:00Z'))
  })
})

describe('daily cap with a warm-up ramp', () => {
  const caps = { dailyCap: 200, warmupStart: 20, warmupIncrease: 20 }
  const born = new Date('2026-11-01T00:00:00Z')

  test('a new number starts low and grows a step a day up to the cap', () => {
    expect(dailyCapFor(born, new Date('2026-11-01T10:00:00Z'), caps)).toBe(20)
    expect(dailyCapFor(born, new Date('2026-11-03T10:00:00Z'), caps)).toBe(60)
    expect(dailyCapFor(born, new Date('2026-12-20T10:00:00Z'), caps)).toBe(200)
  })

  test('no ramp: the cap; no cap: 0', () => {
    expect(dailyCapFor(born, born, { ...caps, warmupStart: 0 })).toBe(200)
    expect(dailyCapFor(born, born, { dailyCap: 0, warmupStart: 0, warmupIncrease: 0 })).toBe(0)
  })
})

describe('settings', () => {
  test('stop words in any language, whatever the case, accents and end punctuation', () => {
    expect(isStopWord(DEFAULT_CAMPAIGN_SETTINGS, ' SAIR! ')).toBe('sair')
    expect(isStopWord(DEFAULT_CAMPAIGN_SETTINGS, 'Stop')).toBe('stop')
    expect(isStopWord(DEFAULT_CAMPAIGN_SETTINGS, 'Bája')).toBe('baja')
    expect(isStopWord(DEFAULT_CAMPAIGN_SETTINGS, 'não quero sair agora')).toBeUndefined()
  })

  test("values off §9's option lists are refused; a repeated variable key is kept once", () => {
    expect(() => checkCampaignSettings({ messageInterval: 7 })).toThrow()
    expect(() => checkCampaignSettings({ greaterInterval: 61 })).toThrow()
    expect(checkCampaignSettings({ variables: [{ key: 'a', value: '1' }, { key: 'a', value: '2' }] }).variables).toEqual([{ key: 'a', value: '1' }])
  })
})
