import { t } from 'elysia'
import { numberOrNumericString } from '../../core/legacy-values.ts'

/** The largest value a PostgreSQL integer column holds: bigger ids and limits are refused up front. */
export const MAX_INTEGER = 2_147_483_647

/** An id in the path: a positive integer that fits the database's integer columns. */
export const IdParams = t.Object({
  id: t.Integer({ minimum: 1, maximum: MAX_INTEGER, error: 'id must be a positive integer' }),
})

const limit = (name: string) =>
  t.Integer({ minimum: 1, maximum: 1_000_000, error: `${name} must be an integer of at least 1` })

// No schema default: a missing flag on create takes the column's default (enabled), on update stays as is.
const feature = (name: string) => t.Boolean({ error: `${name} must be true or false` })

// numeric(10, 2): at most 99,999,999.99.
// A Whaticket-family plan form sends the value as a string ("49.90"): read as the number.
const value = numberOrNumericString({ name: 'value', minimum: 0, maximum: 99_999_999.99, error: 'value must be a number of at least 0' })

const planFields = {
  name: t.String({ minLength: 1, maxLength: 100, pattern: '\\S', error: 'name is required (at most 100 characters)' }),
  users: limit('users'),
  connections: limit('connections'),
  queues: limit('queues'),
  value,
  useCampaigns: feature('useCampaigns'),
  useKanban: feature('useKanban'),
  useOpenAi: feature('useOpenAi'),
  useIntegrations: feature('useIntegrations'),
  useSchedules: feature('useSchedules'),
  useInternalChat: feature('useInternalChat'),
  useExternalApi: feature('useExternalApi'),
  isPublic: feature('isPublic'),
}

/** A new plan: the limits are required, every feature defaults to enabled (§9). */
export const PlanBody = t.Object({
  ...planFields,
  useCampaigns: t.Optional(planFields.useCampaigns),
  useKanban: t.Optional(planFields.useKanban),
  useOpenAi: t.Optional(planFields.useOpenAi),
  useIntegrations: t.Optional(planFields.useIntegrations),
  useSchedules: t.Optional(planFields.useSchedules),
  useInternalChat: t.Optional(planFields.useInternalChat),
  useExternalApi: t.Optional(planFields.useExternalApi),
  isPublic: t.Optional(planFields.isPublic),
})
export type PlanBody = typeof PlanBody.static

/** An update: only the fields sent change. */
export const PlanUpdateBody = t.Partial(t.Object(planFields))
export type PlanUpdateBody = typeof PlanUpdateBody.static

export const Plan = t.Object({
  id: t.Integer(),
  name: t.String(),
  users: t.Integer(),
  connections: t.Integer(),
  queues: t.Integer(),
  value: t.Number(),
  useCampaigns: t.Boolean(),
  useKanban: t.Boolean(),
  useOpenAi: t.Boolean(),
  useIntegrations: t.Boolean(),
  useSchedules: t.Boolean(),
  useInternalChat: t.Boolean(),
  useExternalApi: t.Boolean(),
  isPublic: t.Boolean(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Plan = typeof Plan.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
