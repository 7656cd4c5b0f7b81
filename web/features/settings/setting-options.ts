// The options tab (§9 "Settings keys"): how each key is edited. The on/off keys are switches, the
// keys with named values are selects, the payment provider's token is a masked text.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

export type SwitchOption = { key: string; kind: 'switch'; label: MessageDescriptor; description: MessageDescriptor }
export type SelectOption = { key: string; kind: 'select'; label: MessageDescriptor; description: MessageDescriptor; choices: { value: string; label: MessageDescriptor }[] }
export type SettingOption = SwitchOption | SelectOption

export const ENABLED = 'enabled'
export const DISABLED = 'disabled'

export const settingOptions: readonly SettingOption[] = [
  {
    key: 'userRating',
    kind: 'switch',
    label: msg`Attendance rating`,
    description: msg`When a ticket is closed, the customer is asked to rate the attendance.`,
  },
  {
    key: 'scheduleType',
    kind: 'select',
    label: msg`Business hours`,
    description: msg`Outside business hours customers get the out-of-hours message. Per company: set them in the Hours tab.`,
    choices: [
      { value: 'disabled', label: msg`Disabled` },
      { value: 'queue', label: msg`Per queue` },
      { value: 'company', label: msg`Per company` },
    ],
  },
  {
    key: 'CheckMsgIsGroup',
    kind: 'switch',
    label: msg`Ignore group messages`,
    description: msg`Messages from WhatsApp groups open no ticket.`,
  },
  {
    key: 'call',
    kind: 'switch',
    label: msg`Accept calls`,
    description: msg`When off, WhatsApp calls are rejected with a message.`,
  },
  {
    key: 'chatBotType',
    kind: 'select',
    label: msg`Chatbot type`,
    description: msg`How the queue menu is shown to customers.`,
    choices: [{ value: 'text', label: msg`Text` }],
  },
  {
    key: 'sendGreetingAccepted',
    kind: 'switch',
    label: msg`Greet when a ticket is accepted`,
    description: msg`Sends a greeting with the attendant's name when he accepts a ticket.`,
  },
  {
    key: 'sendMsgTransfTicket',
    kind: 'switch',
    label: msg`Message on transfer`,
    description: msg`Tells the customer when his ticket is transferred to another queue or attendant.`,
  },
  {
    key: 'sendGreetingMessageOneQueues',
    kind: 'switch',
    label: msg`Greeting with a single queue`,
    description: msg`Sends the greeting message even when the connection has only one queue.`,
  },
  {
    key: 'twoFactorRequired',
    kind: 'switch',
    label: msg`Require two-factor authentication for admins`,
    description: msg`Admins without it are asked to set it up right after their password.`,
  },
]

/** The payment provider's (Asaas) token: a credential, shown masked. */
export const PAYMENT_TOKEN_KEY = 'asaas'

export type SettingsMap = Record<string, string>

export function settingsMapOf(list: readonly { key: string; value: string }[]): SettingsMap {
  return Object.fromEntries(list.map(({ key, value }) => [key, value]))
}
