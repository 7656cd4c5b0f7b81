import { t } from 'elysia'
import { emptyAsAbsent, legacyNullable } from '../../core/legacy-values.ts'
import { passwordSchema, searchText } from '../../core/schemas.ts'

export const QueueRef = t.Object({ id: t.Integer(), name: t.String(), color: t.String() })

/** A user's queue with the join row a Whaticket-family client reads (`queues[].UserQueue.queueId`). */
export const UserQueueRef = t.Object({
  id: t.Integer(),
  name: t.String(),
  color: t.String(),
  UserQueue: t.Object({ userId: t.Integer(), queueId: t.Integer() }),
})

export const UserLanguage = t.Union([t.Literal('pt'), t.Literal('en'), t.Literal('es')], { error: 'language must be pt, en or es' })
export const SetLanguageParams = t.Object({ lang: UserLanguage })

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
  /** Null until the user sets one (POST /users/set-language/:lang); the web app keeps its own choice. */
  language: t.Nullable(UserLanguage),
  queues: t.Array(UserQueueRef),
  company: t.Object({
    id: t.Integer(),
    name: t.String(),
    email: t.String(),
    dueDate: t.Nullable(t.String()),
    trialExpiration: t.Nullable(t.String()),
    settings: t.Array(t.Object({ key: t.String(), value: t.String() })),
  }),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type PublicUser = typeof PublicUser.static

const profileSchema = t.Union([t.Literal('user'), t.Literal('admin'), t.Literal('supervisor')], {
  error: "profile must be 'user', 'admin' or 'supervisor'",
})
const allTicketSchema = t.Union([t.Literal('enabled'), t.Literal('desabled')], { error: "allTicket must be 'enabled' or 'desabled'" })
const nameSchema = t.String({ minLength: 2, maxLength: 50, error: 'name is required, 2 to 50 characters' })
const emailSchema = t.String({ format: 'email', maxLength: 254, error: 'email is required and must be a valid e-mail address' })
// One password rule for every password set (§5's reset rule), not the 5 characters of the old user form.
const userPasswordSchema = passwordSchema('password')
// A Whaticket-family user form sends `whatsappId: false` or `""` for none: read as null.
const whatsappIdSchema = legacyNullable(t.Integer({ minimum: 1, error: 'whatsappId must be a connection id or null' }))
const queueIdsSchema = t.Array(t.Integer({ minimum: 1 }), { maxItems: 500, error: 'queueIds must be a list of queue ids' })

export const UserIdParams = t.Object({ id: t.Integer({ minimum: 1, error: 'id must be a positive integer' }) })

export const UserSearchQuery = t.Object({
  searchParam: t.Optional(searchText(100)),
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, error: 'pageNumber must be a positive integer' })),
})

export const UserPage = t.Object({ users: t.Array(PublicUser), count: t.Integer(), hasMore: t.Boolean() })

export const UserOptionsQuery = t.Object({
  companyId: t.Optional(t.Integer({ minimum: 1, maximum: 2_147_483_647, error: 'companyId must be a positive integer' })),
})

/** The light shape for selects (transfer a ticket, filter by user). */
/** A user in a select (transfer, filters); queueIds lets the client offer only the agents of a queue. */
export const UserOption = t.Object({ id: t.Integer(), name: t.String(), email: t.String(), profile: PublicUser.properties.profile, queueIds: t.Array(t.Integer()) })
export type UserOption = typeof UserOption.static

export const CreateUserBody = t.Object({
  name: nameSchema,
  email: emailSchema,
  password: userPasswordSchema,
  profile: t.Optional(profileSchema),
  allTicket: t.Optional(allTicketSchema),
  whatsappId: t.Optional(whatsappIdSchema),
  queueIds: t.Optional(queueIdsSchema),
})
export type CreateUserBody = typeof CreateUserBody.static

/**
 * Name and e-mail are always sent by the user form; the other fields are left as they are when absent.
 * The spec's client also sends companyId: it is ignored (stripped), a user never changes company here.
 */
export const UpdateUserBody = t.Object({
  name: nameSchema,
  email: emailSchema,
  /** A Whaticket-family user form sends `password: ""` when the password is left alone: read as not sent. */
  password: t.Optional(emptyAsAbsent(userPasswordSchema)),
  /** Required with `password` when the user changes his own: a stolen session cannot take the account. */
  currentPassword: t.Optional(t.String({ maxLength: 200, error: 'currentPassword is at most 200 characters' })),
  profile: t.Optional(profileSchema),
  allTicket: t.Optional(allTicketSchema),
  whatsappId: t.Optional(whatsappIdSchema),
  queueIds: t.Optional(queueIdsSchema),
})
export type UpdateUserBody = typeof UpdateUserBody.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
