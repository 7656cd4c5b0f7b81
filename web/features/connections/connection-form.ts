// The connection form (§3 fields, §5 rules, §9 defaults): its values, the checks made before sending,
// the request body, and the server's refusals mapped onto the fields they concern (§8).
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { CreateWhatsappBody, ProviderName } from '../../../src/modules/whatsapp/model.ts'
import type { ApiError } from '../../api/errors.ts'
import { lengthBetween } from '../../forms/validation.ts'
import type { Connection } from './connection.ts'

export type ConnectionFormValues = {
  name: string
  isDefault: boolean
  provider: ProviderName
  greetingMessage: string
  complationMessage: string
  outOfHoursMessage: string
  ratingMessage: string
  expiresInactiveMessage: string
  queueIds: number[]
  transferQueueId: number | null
  /** Minutes before a ticket waiting in the bot is moved to the transfer queue; empty: never. */
  timeToTransfer: number | null
  expiresTicket: number
  timeUseBotQueues: number
  maxUseBotQueues: number
  /** The AI prompt that answers on this connection; null: none. */
  promptId: number | null
  /** The integration (Dialogflow, n8n, webhook, typebot) that answers on this connection; null: none. */
  integrationId: number | null
}

/**
 * Which of the plan-gated fields the dialog shows (useOpenAi, useIntegrations). A hidden field is not
 * sent: the admin could not correct it, so a value gone stale (its prompt deleted meanwhile) must not
 * make the whole form fail, and the stored one is kept.
 */
export type ShownAiFields = { prompt: boolean; integration: boolean }

export type ConnectionField = keyof ConnectionFormValues
/** A field's error: a translatable text of ours, or the server's own words when we have none. */
export type FieldErrors = Partial<Record<ConnectionField, MessageDescriptor | string>>

/** The server's integers are 0 to 1,000,000 (src/modules/whatsapp/model.ts). */
export const MAX_AMOUNT = 1_000_000

/** §9 connection defaults: maxUseBotQueues 3, expiresTicket 0, timeUseBotQueues 0, provider beta. */
export function emptyConnectionForm(): ConnectionFormValues {
  return {
    name: '',
    isDefault: false,
    provider: 'beta',
    greetingMessage: '',
    complationMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    expiresInactiveMessage: '',
    queueIds: [],
    transferQueueId: null,
    timeToTransfer: null,
    expiresTicket: 0,
    timeUseBotQueues: 0,
    maxUseBotQueues: 3,
    promptId: null,
    integrationId: null,
  }
}

export function connectionFormOf(connection: Connection): ConnectionFormValues {
  return {
    name: connection.name,
    isDefault: connection.isDefault,
    provider: connection.provider === 'simulator' ? 'simulator' : 'beta',
    greetingMessage: connection.greetingMessage,
    complationMessage: connection.complationMessage,
    outOfHoursMessage: connection.outOfHoursMessage,
    ratingMessage: connection.ratingMessage,
    expiresInactiveMessage: connection.expiresInactiveMessage,
    queueIds: connection.queues.map((queue) => queue.id),
    transferQueueId: connection.transferQueueId,
    timeToTransfer: connection.timeToTransfer,
    expiresTicket: connection.expiresTicket,
    timeUseBotQueues: connection.timeUseBotQueues,
    maxUseBotQueues: connection.maxUseBotQueues,
    promptId: connection.promptId,
    integrationId: connection.integrationId,
  }
}

export const nameRule = msg`The name is required, from 2 to 50 characters.`
export const greetingRule = msg`A greeting message is required when there is more than one queue.`
export const amountRule = msg`Enter a whole number from 0 to 1000000.`
export const defaultRule = msg`At least one default WhatsApp connection is required.`
export const nameTakenRule = msg`Another connection already has this name.`
export const promptRule = msg`Choose one of your company's prompts, or none.`
export const integrationRule = msg`Choose one of your company's integrations, or none.`

const isAmount = (value: number) => Number.isInteger(value) && value >= 0 && value <= MAX_AMOUNT

/** §5: name 2 to 50; ERR_WAPP_GREETING_REQUIRED when more than one queue; the numbers the server takes. */
export function validateConnectionForm(values: ConnectionFormValues): FieldErrors {
  const errors: FieldErrors = {}
  if (!lengthBetween(values.name, 2, 50)) errors.name = nameRule
  if (values.queueIds.length > 1 && values.greetingMessage.trim() === '') errors.greetingMessage = greetingRule
  for (const field of ['expiresTicket', 'timeUseBotQueues', 'maxUseBotQueues'] as const) {
    if (!isAmount(values[field])) errors[field] = amountRule
  }
  if (values.timeToTransfer !== null && !isAmount(values.timeToTransfer)) errors.timeToTransfer = amountRule
  return errors
}

/** The body of POST and PUT /whatsapp; the prompt and the integration only when their fields are shown. */
export function connectionBodyOf(values: ConnectionFormValues, shown: ShownAiFields): CreateWhatsappBody {
  return {
    name: values.name.trim(),
    isDefault: values.isDefault,
    provider: values.provider,
    greetingMessage: values.greetingMessage,
    complationMessage: values.complationMessage,
    outOfHoursMessage: values.outOfHoursMessage,
    ratingMessage: values.ratingMessage,
    expiresInactiveMessage: values.expiresInactiveMessage,
    queueIds: values.queueIds,
    // A transfer time without a queue to transfer to would mean nothing.
    transferQueueId: values.transferQueueId,
    timeToTransfer: values.transferQueueId === null ? null : values.timeToTransfer,
    expiresTicket: values.expiresTicket,
    timeUseBotQueues: values.timeUseBotQueues,
    maxUseBotQueues: values.maxUseBotQueues,
    ...(shown.prompt ? { promptId: values.promptId } : {}),
    ...(shown.integration ? { integrationId: values.integrationId } : {}),
  }
}

const formFields: readonly ConnectionField[] = [
  'name',
  'isDefault',
  'provider',
  'greetingMessage',
  'complationMessage',
  'outOfHoursMessage',
  'ratingMessage',
  'expiresInactiveMessage',
  'queueIds',
  'transferQueueId',
  'timeToTransfer',
  'expiresTicket',
  'timeUseBotQueues',
  'maxUseBotQueues',
  'promptId',
  'integrationId',
]

const isFormField = (field: string): field is ConnectionField => (formFields as readonly string[]).includes(field)

/** Our own words for the fields whose server message would mean little to an admin. */
const ruleOf: Partial<Record<ConnectionField, MessageDescriptor>> = {
  name: nameRule,
  expiresTicket: amountRule,
  timeUseBotQueues: amountRule,
  maxUseBotQueues: amountRule,
  timeToTransfer: amountRule,
  promptId: promptRule,
  integrationId: integrationRule,
}

/**
 * A refusal of the server as field errors where it names a field (the toast still says what happened):
 * the greeting rule, the default rule, a taken name, and the 422 field list.
 */
export function fieldErrorsOf(error: ApiError): FieldErrors {
  switch (error.code) {
    case 'ERR_WAPP_GREETING_REQUIRED':
      return { greetingMessage: greetingRule }
    case 'ERR_NO_OTHER_WHATSAPP':
      return { isDefault: defaultRule }
    case 'ERR_WAPP_NAME_ALREADY_EXISTS':
      return { name: nameTakenRule }
  }
  const errors: FieldErrors = {}
  for (const { field, message } of error.fields) {
    const name = field.split('.')[0] ?? field
    if (!isFormField(name) || errors[name]) continue
    errors[name] = ruleOf[name] ?? message
  }
  return errors
}

/** The tab of the dialog that shows a field, to open the first one with an error. */
export type ConnectionTab = 'general' | 'messages' | 'bot' | 'token'
export const tabOfField: Record<ConnectionField, ConnectionTab> = {
  name: 'general',
  isDefault: 'general',
  provider: 'general',
  queueIds: 'general',
  transferQueueId: 'general',
  timeToTransfer: 'general',
  greetingMessage: 'messages',
  complationMessage: 'messages',
  outOfHoursMessage: 'messages',
  ratingMessage: 'messages',
  expiresInactiveMessage: 'messages',
  expiresTicket: 'bot',
  timeUseBotQueues: 'bot',
  maxUseBotQueues: 'bot',
  promptId: 'bot',
  integrationId: 'bot',
}

export function firstTabWithError(errors: FieldErrors): ConnectionTab | undefined {
  const field = formFields.find((name) => errors[name] !== undefined)
  return field ? tabOfField[field] : undefined
}
