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
  asaas: { defaultValue: '', secret: true },
  campaignsEnabled: { defaultValue: 'true', allowed: ['true', 'false'] },
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
