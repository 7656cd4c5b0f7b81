// A company's campaign settings (§3, §7, §9): stored one row per key with a JSON string value, as the
// wire shape is. The intervals are SECONDS, as §9's option lists say (0, 5, ... 20 and 0, 1, ... 120):
// the dispatcher multiplies by 1000 once, in pacing.ts. Beyond §9, what protects the number: a sending
// window, a daily cap per connection with a warm-up ramp, jitter, and the opt-out stop words.
import { eq } from 'drizzle-orm'
import { t } from 'elysia'
import type { Executor } from '../../../db/client.ts'
import { campaignSettings } from '../../../db/schema/index.ts'
import { invalidField } from '../../core/errors.ts'

import { DEFAULT_CAMPAIGN_SETTINGS as DEFAULTS, LONGER_INTERVAL_OPTIONS, MESSAGE_INTERVAL_OPTIONS } from '../../contracts/campaigns.ts'

export { LONGER_INTERVAL_OPTIONS, MESSAGE_INTERVAL_OPTIONS }

const Variable = t.Object({
  key: t.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z_][\\w-]*$', error: 'a variable key is letters, digits, _ or -, starting with a letter' }),
  value: t.String({ maxLength: 1000 }),
})

const time = (name: string) => t.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', error: `${name} must be HH:MM` })

export const SendWindow = t.Object({
  enabled: t.Boolean(),
  start: time('sendWindow.start'),
  end: time('sendWindow.end'),
  /** 0 Sunday .. 6 Saturday, in the company's time zone. */
  weekdays: t.Array(t.Integer({ minimum: 0, maximum: 6 }), { maxItems: 7 }),
})
export type SendWindow = typeof SendWindow.static

const StopWords = t.Object({
  pt: t.Array(t.String({ minLength: 1, maxLength: 40 }), { maxItems: 50 }),
  en: t.Array(t.String({ minLength: 1, maxLength: 40 }), { maxItems: 50 }),
  es: t.Array(t.String({ minLength: 1, maxLength: 40 }), { maxItems: 50 }),
})

/** Every setting, with its value's schema: what POST /campaign-settings accepts (any subset). */
export const CampaignSettingsInput = t.Object({
  messageInterval: t.Optional(t.Integer({ minimum: 0, maximum: 20, error: 'messageInterval is one of 0, 5, 10, 15, 20 (seconds)' })),
  longerIntervalAfter: t.Optional(t.Integer({ minimum: 0, maximum: 120, error: 'longerIntervalAfter is one of 0, 1, 5 ... 120' })),
  greaterInterval: t.Optional(t.Integer({ minimum: 0, maximum: 120, error: 'greaterInterval is one of 0, 1, 5 ... 120 (seconds)' })),
  variables: t.Optional(t.Array(Variable, { maxItems: 100 })),
  sendWindow: t.Optional(SendWindow),
  /** Sends per connection and day (0: no cap). */
  dailyCap: t.Optional(t.Integer({ minimum: 0, maximum: 100_000 })),
  /** A young number's first-day cap, growing by warmupIncrease a day up to dailyCap (0: no ramp). */
  warmupStart: t.Optional(t.Integer({ minimum: 0, maximum: 10_000 })),
  warmupIncrease: t.Optional(t.Integer({ minimum: 0, maximum: 10_000 })),
  /** Each wait is the interval ± this percentage, at random. */
  jitterPercent: t.Optional(t.Integer({ minimum: 0, maximum: 100 })),
  stopWords: t.Optional(StopWords),
})
export type CampaignSettingsInput = typeof CampaignSettingsInput.static
export type CampaignSettings = Required<CampaignSettingsInput>

export const CampaignSettingsBody = t.Object({ settings: CampaignSettingsInput })

export const CampaignSettingRow = t.Object({ key: t.String(), value: t.String({ description: 'the value as a JSON string' }) })

export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSettings = DEFAULTS

const settingKeys = Object.keys(DEFAULT_CAMPAIGN_SETTINGS) as (keyof CampaignSettings)[]

/** The stored settings over the defaults; a stored value that no longer parses falls back to its default. */
export async function loadCampaignSettings(db: Executor, companyId: number): Promise<CampaignSettings> {
  // Prepared: every burst of customer messages reads them (campaigns/tracking.ts).
  const rows = await db
    .select({ key: campaignSettings.key, value: campaignSettings.value })
    .from(campaignSettings)
    .where(eq(campaignSettings.companyId, companyId))
    .prepare('campaign_settings')
    .execute()
  const settings: Record<string, unknown> = { ...DEFAULT_CAMPAIGN_SETTINGS }
  for (const row of rows) {
    if (!settingKeys.includes(row.key as keyof CampaignSettings)) continue
    try {
      settings[row.key] = JSON.parse(row.value)
    } catch {
      // Keep the default.
    }
  }
  return settings as CampaignSettings
}

/** §7's GET shape: every key with its value as a JSON string. */
export async function listCampaignSettings(db: Executor, companyId: number): Promise<(typeof CampaignSettingRow.static)[]> {
  const settings = await loadCampaignSettings(db, companyId)
  return settingKeys.map((key) => ({ key, value: JSON.stringify(settings[key]) }))
}

/** The option lists of §9, beyond the schema's range; a variable key given twice is kept once (§5). */
export function checkCampaignSettings(input: CampaignSettingsInput): CampaignSettingsInput {
  if (input.messageInterval !== undefined && !(MESSAGE_INTERVAL_OPTIONS as readonly number[]).includes(input.messageInterval)) {
    throw invalidField('settings.messageInterval', 'messageInterval is one of 0, 5, 10, 15, 20 (seconds)')
  }
  for (const key of ['longerIntervalAfter', 'greaterInterval'] as const) {
    const value = input[key]
    if (value !== undefined && !(LONGER_INTERVAL_OPTIONS as readonly number[]).includes(value)) throw invalidField(`settings.${key}`, `${key} is one of ${LONGER_INTERVAL_OPTIONS.join(', ')}`)
  }
  const window = input.sendWindow
  if (window && window.enabled && window.start >= window.end) throw invalidField('settings.sendWindow', 'sendWindow.start must be before sendWindow.end')
  if (window && window.enabled && window.weekdays.length === 0) throw invalidField('settings.sendWindow', 'sendWindow needs at least one weekday')
  // The first of a duplicated key is kept, as the dialog does.
  const variables = input.variables?.filter((variable, index, all) => all.findIndex((other) => other.key === variable.key) === index)
  return { ...input, ...(variables ? { variables } : {}) }
}

export async function saveCampaignSettings(db: Executor, companyId: number, input: CampaignSettingsInput, now: Date): Promise<void> {
  const checked = checkCampaignSettings(input)
  for (const key of settingKeys) {
    const value = checked[key]
    if (value === undefined) continue
    const json = JSON.stringify(value)
    await db
      .insert(campaignSettings)
      .values({ companyId, key, value: json, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: [campaignSettings.companyId, campaignSettings.key], set: { value: json, updatedAt: now } })
  }
}

/** The company's campaign variables as the renderer's `extra`. */
export function variablesOf(settings: CampaignSettings): Record<string, string> {
  return Object.fromEntries(settings.variables.map((variable) => [variable.key, variable.value]))
}

/** A reply is a stop word when, trimmed, lower-cased and without accents or end punctuation, it is one. */
export function normaliseStopWord(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim()
    .replace(/[.!?,;:]+$/u, '')
    .trim()
}

// The stop words of a settings object, normalised once: every customer message of a burst is checked
// against them (campaigns/tracking.ts), and normalising the whole list for each one showed in profiles.
const normalisedStopWords = new WeakMap<CampaignSettings, ReadonlySet<string>>()

export function isStopWord(settings: CampaignSettings, body: string): string | undefined {
  const word = normaliseStopWord(body)
  if (!word) return undefined
  let all = normalisedStopWords.get(settings)
  if (!all) {
    all = new Set([...settings.stopWords.pt, ...settings.stopWords.en, ...settings.stopWords.es].map(normaliseStopWord))
    normalisedStopWords.set(settings, all)
  }
  return all.has(word) ? word : undefined
}
