import { t } from 'elysia'
import { legacyNullable } from '../../core/legacy-values.ts'
import { ScheduleEntry, ScheduleEntryInput } from '../companies/model.ts'

export { IdParams } from '../../core/schemas.ts'

export const Queue = t.Object({
  id: t.Integer(),
  companyId: t.Integer(),
  name: t.String(),
  color: t.String(),
  greetingMessage: t.String(),
  outOfHoursMessage: t.String(),
  orderQueue: t.Nullable(t.Integer()),
  integrationId: t.Nullable(t.Integer()),
  promptId: t.Nullable(t.Integer()),
  schedules: t.Array(ScheduleEntry),
  slaFirstResponseMinutes: t.Nullable(t.Integer()),
  slaResolutionMinutes: t.Nullable(t.Integer()),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Queue = typeof Queue.static

export const QueueListQuery = t.Object({
  /** Super users may list another company's queues; anyone may name his own. */
  companyId: t.Optional(t.Integer({ minimum: 1, maximum: 2_147_483_647, title: 'companyId', error: 'companyId must be a positive integer' })),
})

/** §5: 3 to 9 characters, as a colour is written: #RGB, #RRGGBB, #RRGGBBAA or a colour name. */
export const colorSchema = t.String({
  minLength: 3,
  maxLength: 9,
  pattern: '^#?[0-9A-Za-z]+$',
  error: 'color is required, 3 to 9 characters such as #RRGGBB',
})
// A Whaticket-family queue form sends `orderQueue: ""` and `integrationId: ""` for none: read as null.
const reference = (name: string) => legacyNullable(t.Integer({ minimum: 1, maximum: 2_147_483_647, error: `${name} must be a positive integer or null` }))
/** A service-level target in business minutes: up to 30 days of them. */
const slaTarget = (name: string, description: string) =>
  t.Nullable(t.Integer({ minimum: 1, maximum: 43_200, title: name, error: `${name} must be a whole number of minutes from 1 to 43200, or null`, description }))
const message = (name: string) => t.String({ maxLength: 5000, error: `${name} must be at most 5000 characters` })

const queueFields = {
  name: t.String({ minLength: 2, maxLength: 50, error: 'name is required, 2 to 50 characters' }),
  color: colorSchema,
  greetingMessage: message('greetingMessage'),
  outOfHoursMessage: message('outOfHoursMessage'),
  orderQueue: legacyNullable(t.Integer({ minimum: 0, maximum: 100_000, error: 'orderQueue must be a whole number from 0 to 100000, or null' })),
  integrationId: reference('integrationId'),
  promptId: reference('promptId'),
  schedules: t.Array(ScheduleEntryInput, { maxItems: 7, error: 'schedules must list at most 7 weekdays' }),
  slaFirstResponseMinutes: slaTarget('slaFirstResponseMinutes', 'Service level: business minutes from queuing until an agent takes the ticket; null for none'),
  slaResolutionMinutes: slaTarget('slaResolutionMinutes', 'Service level: business minutes from queuing until the ticket is closed; null for none'),
}

/** Name and colour are required; schedules default to the §9 week when absent. */
export const CreateQueueBody = t.Object({
  name: queueFields.name,
  color: queueFields.color,
  greetingMessage: t.Optional(queueFields.greetingMessage),
  outOfHoursMessage: t.Optional(queueFields.outOfHoursMessage),
  orderQueue: t.Optional(queueFields.orderQueue),
  integrationId: t.Optional(queueFields.integrationId),
  promptId: t.Optional(queueFields.promptId),
  schedules: t.Optional(queueFields.schedules),
  slaFirstResponseMinutes: t.Optional(queueFields.slaFirstResponseMinutes),
  slaResolutionMinutes: t.Optional(queueFields.slaResolutionMinutes),
})
export type CreateQueueBody = typeof CreateQueueBody.static

/** Only the fields sent change. */
export const UpdateQueueBody = t.Partial(t.Object(queueFields))
export type UpdateQueueBody = typeof UpdateQueueBody.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
