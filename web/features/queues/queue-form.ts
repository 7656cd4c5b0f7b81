// The queue dialog's values, the §5 checks before sending (name 2 to 50, colour 3 to 9 from the
// palette, greeting free) plus the server's own limits, the request body, and the server's refusals
// mapped back onto the fields.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { ScheduleEntry } from '../../../src/modules/companies/model.ts'
import type { ApiError } from '../../api/errors.ts'
import { lengthBetween } from '../../forms/validation.ts'
import type { QueueRow } from './queue.ts'
import { defaultWeek, serverScheduleProblem, weekOf, weekProblems } from '../../forms/week-hours.ts'

export const MAX_MESSAGE = 5000
export const MAX_ORDER = 100_000
/** A service-level target: up to 30 days of business minutes (the server's limit). */
export const MAX_SLA_MINUTES = 43_200

export type QueueFormValues = {
  name: string
  color: string
  /** As typed: empty means no order (the queue goes after the ordered ones). */
  orderQueue: string
  greetingMessage: string
  outOfHoursMessage: string
  schedules: ScheduleEntry[]
  /** The AI prompt that answers in this queue; null: none. */
  promptId: number | null
  /** The integration that answers in this queue; null: none. */
  integrationId: number | null
  /** Service-level targets in business minutes, as typed: empty means none. */
  slaFirstResponseMinutes: string
  slaResolutionMinutes: string
}

/**
 * The parts of the form the dialog shows, and so sends: the attendance time (setting scheduleType
 * 'queue'), the prompt (plan useOpenAi), the integration (plan useIntegrations). A hidden part is
 * left out of the body, so the stored value stays and a stale one the admin cannot see never fails a save.
 */
export type ShownQueueParts = { schedules: boolean; prompt: boolean; integration: boolean }

export type QueueField =
  | 'name'
  | 'color'
  | 'orderQueue'
  | 'greetingMessage'
  | 'outOfHoursMessage'
  | 'promptId'
  | 'integrationId'
  | 'slaFirstResponseMinutes'
  | 'slaResolutionMinutes'
/** Field errors: the fields above, and `schedules.<index>.startTime|endTime`. */
export type QueueFormErrors = Partial<Record<string, MessageDescriptor>>

export const queueRules = {
  name: msg`Enter a name of 2 to 50 characters.`,
  color: msg`Pick a colour.`,
  orderQueue: msg`Enter a whole number from 0 to 100000, or leave it empty.`,
  message: msg`At most 5000 characters.`,
  time: msg`Enter a time as HH:MM (00:00 to 23:59).`,
  order: msg`The end must not be before the start.`,
  nameTaken: msg`Another queue already has this name.`,
  colorTaken: msg`This colour is already used by another queue. Pick another one.`,
  prompt: msg`Choose one of your company's prompts, or none.`,
  integration: msg`Choose one of your company's integrations, or none.`,
  sla: msg`Enter a whole number of minutes from 1 to 43200, or leave it empty.`,
} satisfies Record<string, MessageDescriptor>

export function emptyQueueForm(color: string): QueueFormValues {
  return { name: '', color, orderQueue: '', greetingMessage: '', outOfHoursMessage: '', schedules: defaultWeek(), promptId: null, integrationId: null, slaFirstResponseMinutes: '', slaResolutionMinutes: '' }
}

export function queueFormOf(queue: QueueRow): QueueFormValues {
  return {
    name: queue.name,
    color: queue.color,
    orderQueue: queue.orderQueue === null ? '' : String(queue.orderQueue),
    greetingMessage: queue.greetingMessage,
    outOfHoursMessage: queue.outOfHoursMessage,
    schedules: weekOf(queue.schedules),
    promptId: queue.promptId,
    integrationId: queue.integrationId,
    slaFirstResponseMinutes: queue.slaFirstResponseMinutes === null ? '' : String(queue.slaFirstResponseMinutes),
    slaResolutionMinutes: queue.slaResolutionMinutes === null ? '' : String(queue.slaResolutionMinutes),
  }
}

/** A target as typed: empty is none (null); undefined when it is not 1 to MAX_SLA_MINUTES whole minutes. */
function slaOf(value: string): number | null | undefined {
  const text = value.trim()
  if (text === '') return null
  if (!/^[0-9]+$/.test(text)) return undefined
  const number = Number(text)
  return number >= 1 && number <= MAX_SLA_MINUTES ? number : undefined
}

function orderOf(value: string): number | null | undefined {
  const text = value.trim()
  if (text === '') return null
  if (!/^[0-9]+$/.test(text)) return undefined
  const number = Number(text)
  return number <= MAX_ORDER ? number : undefined
}

/** The §5 checks; `withSchedules` when the attendance-time tab is shown (and so sent). */
export function validateQueueForm(values: QueueFormValues, withSchedules: boolean): QueueFormErrors {
  const errors: QueueFormErrors = {}
  if (!lengthBetween(values.name, 2, 50)) errors.name = queueRules.name
  if (values.color.trim().length < 3 || values.color.trim().length > 9) errors.color = queueRules.color
  if (orderOf(values.orderQueue) === undefined) errors.orderQueue = queueRules.orderQueue
  if (values.greetingMessage.length > MAX_MESSAGE) errors.greetingMessage = queueRules.message
  if (values.outOfHoursMessage.length > MAX_MESSAGE) errors.outOfHoursMessage = queueRules.message
  if (slaOf(values.slaFirstResponseMinutes) === undefined) errors.slaFirstResponseMinutes = queueRules.sla
  if (slaOf(values.slaResolutionMinutes) === undefined) errors.slaResolutionMinutes = queueRules.sla
  if (withSchedules) {
    for (const [field, problem] of Object.entries(weekProblems(values.schedules))) errors[field] = queueRules[problem]
  }
  return errors
}

/**
 * The body of POST /queue and PUT /queue/{id}: only the parts shown (see ShownQueueParts), so hidden
 * default hours never overwrite a stored week, nor a hidden prompt or integration the stored one.
 */
export function queueBodyOf(values: QueueFormValues, shown: ShownQueueParts) {
  return {
    name: values.name.trim(),
    color: values.color.trim(),
    orderQueue: orderOf(values.orderQueue) ?? null,
    greetingMessage: values.greetingMessage,
    outOfHoursMessage: values.outOfHoursMessage,
    slaFirstResponseMinutes: slaOf(values.slaFirstResponseMinutes) ?? null,
    slaResolutionMinutes: slaOf(values.slaResolutionMinutes) ?? null,
    ...(shown.schedules ? { schedules: values.schedules } : {}),
    ...(shown.prompt ? { promptId: values.promptId } : {}),
    ...(shown.integration ? { integrationId: values.integrationId } : {}),
  }
}

/** Our words for each field the server may refuse. */
const serverRules: Record<QueueField, MessageDescriptor> = {
  name: queueRules.name,
  color: queueRules.color,
  orderQueue: queueRules.orderQueue,
  greetingMessage: queueRules.message,
  outOfHoursMessage: queueRules.message,
  promptId: queueRules.prompt,
  integrationId: queueRules.integration,
  slaFirstResponseMinutes: queueRules.sla,
  slaResolutionMinutes: queueRules.sla,
}
const isServerField = (field: string): field is QueueField => Object.hasOwn(serverRules, field)

/** The server's refusal on our fields (422 fields, duplicate name or colour); empty when it is about none of them. */
export function queueErrorsOf(error: ApiError): QueueFormErrors {
  const errors: QueueFormErrors = {}
  for (const { field, message } of error.fields) {
    const schedule = serverScheduleProblem(field, message)
    if (schedule) errors[field] = queueRules[schedule]
    else if (isServerField(field)) errors[field] = serverRules[field]
  }
  if (error.code === 'ERR_QUEUE_NAME_ALREADY_EXISTS') errors.name = queueRules.nameTaken
  if (error.code === 'ERR_QUEUE_COLOR_ALREADY_EXISTS') errors.color = queueRules.colorTaken
  return errors
}

export type QueueTab = 'data' | 'hours' | 'options'

export function tabOfField(field: string): QueueTab {
  return field.startsWith('schedules.') ? 'hours' : 'data'
}
