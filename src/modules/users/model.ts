import { t } from 'elysia'

export const QueueRef = t.Object({ id: t.Integer(), name: t.String(), color: t.String() })

export const PublicUser = t.Object({
  id: t.Integer(),
  companyId: t.Integer(),
  name: t.String(),
  email: t.String(),
  profile: t.Union([t.Literal('user'), t.Literal('admin'), t.Literal('supervisor')]),
  super: t.Boolean(),
  whatsappId: t.Nullable(t.Integer()),
  allTicket: t.Union([t.Literal('enabled'), t.Literal('desabled')]),
  online: t.Boolean(),
  queues: t.Array(QueueRef),
  company: t.Object({
    id: t.Integer(),
    name: t.String(),
    dueDate: t.Nullable(t.String()),
    settings: t.Array(t.Object({ key: t.String(), value: t.String() })),
  }),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type PublicUser = typeof PublicUser.static
