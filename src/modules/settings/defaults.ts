// The §9 settings every company starts with, and which values each key accepts.
import type { Executor } from '../../../db/client.ts'
import { settings } from '../../../db/schema/index.ts'

const onOff = ['enabled', 'disabled'] as const

export type SettingDefinition = {
  defaultValue: string
  /** The values accepted; undefined: free text. */
  allowed?: readonly string[]
  /** A credential (a payment provider's token): shown to admins only, never in the signed-in user's payload. */
  secret?: boolean
  /** A check of free text: the reason it is refused, or undefined when it is accepted. */
  validate?: (value: string) => string | undefined
}

/** The longest retention a company may set: 100 years, so that days * 86,400,000 stays a safe integer. */
export const MAX_RETENTION_DAYS = 36_500

function validateRetentionDays(value: string): string | undefined {
  if (!/^\d{1,5}$/.test(value) || Number(value) > MAX_RETENTION_DAYS) return `value must be a whole number of days from 0 (keep forever) to ${MAX_RETENTION_DAYS}`
  return undefined
}

const definitions = {
  userRating: { defaultValue: 'disabled', allowed: onOff },
  scheduleType: { defaultValue: 'disabled', allowed: ['disabled', 'queue', 'company'] },
  // enabled: group messages are ignored
  CheckMsgIsGroup: { defaultValue: 'enabled', allowed: onOff },
  // enabled: calls are accepted; disabled: rejected with a message
  call: { defaultValue: 'enabled', allowed: onOff },
  chatBotType: { defaultValue: 'text', allowed: ['text'] },
  sendGreetingAccepted: { defaultValue: 'disabled', allowed: onOff },
  sendMsgTransfTicket: { defaultValue: 'disabled', allowed: onOff },
  sendGreetingMessageOneQueues: { defaultValue: 'enabled', allowed: onOff },
  // Sealed at rest and shown masked (secret-settings.ts): a masked value sent back is not a token.
  asaas: { defaultValue: '', secret: true, validate: (value) => (value.startsWith('****') ? 'value must be the token itself, not its masked form' : undefined) },
  campaignsEnabled: { defaultValue: 'true', allowed: ['true', 'false'] },
  // Data retention (LGPD/GDPR): the messages of tickets closed more than this many days ago are
  // erased by a daily job (jobs/data-retention.ts); 0 keeps them forever.
  dataRetentionDays: { defaultValue: '0', validate: validateRetentionDays },
  // enabled: the company's admins must sign in with a second factor (TOTP)
  twoFactorRequired: { defaultValue: 'disabled', allowed: onOff },
} satisfies Record<string, SettingDefinition>

export type SettingKey = keyof typeof definitions

/** key -> default, allowed values (undefined: free text) and whether it is a secret. */
export const settingDefinitions: Record<string, SettingDefinition> = definitions

export const settingKeys = Object.keys(definitions) as SettingKey[]

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(definitions, key)
}

export function isSecretSetting(key: string): boolean {
  return settingDefinitions[key]?.secret === true
}

export async function createDefaultSettings(db: Executor, companyId: number): Promise<void> {
  await db
    .insert(settings)
    .values(Object.entries(settingDefinitions).map(([key, { defaultValue }]) => ({ companyId, key, value: defaultValue })))
    .onConflictDoNothing()
}
