// The §9 settings every company starts with, and which values each key accepts.
import type { Executor } from '../../../db/client.ts'
import { settings } from '../../../db/schema/index.ts'

const onOff = ['enabled', 'disabled'] as const

/** key -> [default, allowed values (undefined: free text)] */
export const settingDefinitions: Record<string, { defaultValue: string; allowed?: readonly string[] }> = {
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
  asaas: { defaultValue: '' },
  campaignsEnabled: { defaultValue: 'true', allowed: ['true', 'false'] },
}

export async function createDefaultSettings(db: Executor, companyId: number): Promise<void> {
  await db
    .insert(settings)
    .values(Object.entries(settingDefinitions).map(([key, { defaultValue }]) => ({ companyId, key, value: defaultValue })))
    .onConflictDoNothing()
}
