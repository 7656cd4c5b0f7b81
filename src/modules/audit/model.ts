import { t } from 'elysia'

export const AuditQuery = t.Object({
  companyId: t.Optional(t.Integer({ minimum: 1, error: 'companyId must be a company id (super users only)' })),
  action: t.Optional(t.String({ maxLength: 60, error: 'action is at most 60 characters' })),
  userId: t.Optional(t.Integer({ minimum: 1, error: 'userId must be a user id' })),
  from: t.Optional(t.String({ format: 'date-time', error: 'from must be an ISO date-time' })),
  to: t.Optional(t.String({ format: 'date-time', error: 'to must be an ISO date-time' })),
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, error: 'pageNumber must be a positive integer' })),
})
export type AuditQuery = typeof AuditQuery.static

export const AuditEntry = t.Object({
  id: t.Integer(),
  companyId: t.Nullable(t.Integer()),
  actorUserId: t.Nullable(t.Integer()),
  action: t.String(),
  entity: t.String(),
  entityId: t.Nullable(t.String()),
  before: t.Unknown(),
  after: t.Unknown(),
  ip: t.Nullable(t.String()),
  userAgent: t.Nullable(t.String()),
  createdAt: t.Date(),
})

export const AuditPage = t.Object({ entries: t.Array(AuditEntry), count: t.Integer(), hasMore: t.Boolean() })
export const RetentionBody = t.Object({ days: t.Integer({ minimum: 1, maximum: 3650, error: 'days must be 1 to 3650' }) })
export const RetentionResponse = t.Object({ days: t.Integer() })
