import { t } from 'elysia'
import { emptyAsAbsent } from '../../core/legacy-values.ts'
import { passwordSchema, searchText } from '../../core/schemas.ts'
import { Plan } from '../plans/model.ts'

export { IdParams } from '../plans/model.ts'

export const Recurrence = t.Union(
  [t.Literal('MENSAL'), t.Literal('BIMESTRAL'), t.Literal('TRIMESTRAL'), t.Literal('SEMESTRAL'), t.Literal('ANUAL')],
  { error: 'recurrence must be MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL or ANUAL' },
)

export const weekdaysEn = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const

const time = (name: string) => t.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', error: `${name} must be a time HH:MM (00:00 to 23:59)` })

/** One business-hours row (§3 "Schedule entry"); the same shape serves companies and queues. */
export const ScheduleEntry = t.Object({
  weekday: t.String({ minLength: 1, maxLength: 30, error: 'weekday is required (at most 30 characters)' }),
  weekdayEn: t.String({ pattern: `^(${weekdaysEn.join('|')})$`, error: `weekdayEn must be one of ${weekdaysEn.join(', ')}` }),
  startTime: time('startTime'),
  endTime: time('endTime'),
})
export type ScheduleEntry = typeof ScheduleEntry.static

/** A legacy form leaves both times empty on a closed day (`""`): read as closed (equal times). */
const timeOrEmpty = (name: string) => t.Union([time(name), t.Literal('')], { error: `${name} must be a time HH:MM (00:00 to 23:59), or "" with the other time "" for a closed day` })

/** A business-hours row as a form sends it: both times `""` means closed that day. */
export const ScheduleEntryInput = t.Object({
  weekday: ScheduleEntry.properties.weekday,
  weekdayEn: ScheduleEntry.properties.weekdayEn,
  startTime: timeOrEmpty('startTime'),
  endTime: timeOrEmpty('endTime'),
})
export type ScheduleEntryInput = typeof ScheduleEntryInput.static

export const SchedulesBody = t.Object({
  /** The company id again, as the web client sends it; must match the path when present. */
  id: t.Optional(t.Integer({ minimum: 1, error: 'id must be the company id' })),
  schedules: t.Array(ScheduleEntryInput, { maxItems: 7, error: 'schedules must list at most 7 weekdays' }),
})
export type SchedulesBody = typeof SchedulesBody.static

const name = t.String({ minLength: 2, maxLength: 50, error: 'name is required, 2 to 50 characters' })
const email = t.String({ format: 'email', maxLength: 254, error: 'email must be a valid e-mail address' })
/** The mask (99) 99999-9999 is accepted; only digits are kept (at most 11 on signup, 15 with a country code otherwise). */
const phone = t.String({ maxLength: 30, pattern: '^[0-9 ()+.-]*$', error: 'phone must be digits (a mask like (99) 99999-9999 is fine)' })
/** §5's reset rule, as for every password set (issue 11, item 10). */
const password = passwordSchema('password')
/** §5 "Company save": an empty or invalid due date becomes null, so any short string is accepted here. */
const dueDate = t.Union([t.String({ maxLength: 40 }), t.Null()], { error: 'dueDate must be a date YYYY-MM-DD, empty or null' })
const text = (field: string, maxLength = 200) => t.String({ maxLength, error: `${field} must be at most ${maxLength} characters` })

const companyFields = {
  name,
  email: t.Union([email, t.Literal('')], { error: 'email must be a valid e-mail address' }),
  phone,
  planId: t.Integer({ minimum: 1, maximum: 2_147_483_647, error: 'planId is required' }),
  status: t.Boolean({ error: 'status must be true or false' }),
  dueDate,
  // A Whaticket-family company form sends `recurrence: ""` when none was chosen: the default (create) or unchanged (edit).
  recurrence: emptyAsAbsent(Recurrence),
  campaignsEnabled: t.Boolean({ error: 'campaignsEnabled must be true or false' }),
  timezone: t.String({ minLength: 1, maxLength: 64, error: 'timezone must be an IANA time zone such as America/Sao_Paulo' }),
  document: text('document', 30),
  addressLine: text('addressLine'),
  city: text('city', 100),
  state: text('state', 100),
  zipcode: text('zipcode', 20),
  country: text('country', 60),
}

/** A company made by a super user. With `password`, its first admin is created, signing in with the company e-mail. */
export const CompanyCreateBody = t.Object({
  name: companyFields.name,
  planId: companyFields.planId,
  email: t.Optional(companyFields.email),
  phone: t.Optional(companyFields.phone),
  status: t.Optional(companyFields.status),
  dueDate: t.Optional(companyFields.dueDate),
  recurrence: t.Optional(companyFields.recurrence),
  campaignsEnabled: t.Optional(companyFields.campaignsEnabled),
  timezone: t.Optional(companyFields.timezone),
  document: t.Optional(companyFields.document),
  addressLine: t.Optional(companyFields.addressLine),
  city: t.Optional(companyFields.city),
  state: t.Optional(companyFields.state),
  zipcode: t.Optional(companyFields.zipcode),
  country: t.Optional(companyFields.country),
  password: t.Optional(password),
  /** The admin's display name; the company name when absent. */
  adminName: t.Optional(t.String({ minLength: 2, maxLength: 50, error: 'adminName must be 2 to 50 characters' })),
})
export type CompanyCreateBody = typeof CompanyCreateBody.static

/** Only the fields sent change. */
export const CompanyUpdateBody = t.Partial(t.Object(companyFields))
export type CompanyUpdateBody = typeof CompanyUpdateBody.static

export const SignupBody = t.Object({
  name,
  email,
  password,
  planId: companyFields.planId,
  phone: t.Optional(phone),
  /** The admin's display name; the company name when absent. */
  userName: t.Optional(t.String({ minLength: 2, maxLength: 50, error: 'userName must be 2 to 50 characters' })),
})
export type SignupBody = typeof SignupBody.static

export const CompanyPlanRef = t.Object({ id: t.Integer(), name: t.String() })

export const Company = t.Object({
  id: t.Integer(),
  name: t.String(),
  email: t.String(),
  phone: t.String(),
  planId: t.Nullable(t.Integer()),
  plan: t.Nullable(CompanyPlanRef),
  status: t.Boolean(),
  /** Last valid day, YYYY-MM-DD; null: never expires. */
  dueDate: t.Nullable(t.String()),
  recurrence: Recurrence,
  trialExpiration: t.Nullable(t.String()),
  timezone: t.String(),
  schedules: t.Array(ScheduleEntry),
  campaignsEnabled: t.Boolean(),
  document: t.String(),
  addressLine: t.String(),
  city: t.String(),
  state: t.String(),
  zipcode: t.String(),
  country: t.String(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type Company = typeof Company.static

export const CompanyListQuery = t.Object({
  searchParam: t.Optional(searchText(100)),
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, error: 'pageNumber must be a positive integer' })),
})
export type CompanyListQuery = typeof CompanyListQuery.static

export const CompanyPage = t.Object({ companies: t.Array(Company), count: t.Integer(), hasMore: t.Boolean() })

/** The company's plan, with the feature flags the menus and gates read. */
export const CompanyWithPlan = t.Object({
  id: t.Integer(),
  name: t.String(),
  planId: t.Nullable(t.Integer()),
  plan: t.Nullable(Plan),
})

export const CompanyParams = t.Object({
  companyId: t.Integer({ minimum: 1, maximum: 2_147_483_647, error: 'companyId must be a positive integer' }),
})

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
