// Plans, companies (tenants), their settings and invoices.
import { boolean, date, index, integer, jsonb, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { id, timestamps } from './columns.ts'

export const plans = pgTable(
  'plans',
  {
    id: id(),
    name: text().notNull(),
    users: integer().notNull().default(0),
    connections: integer().notNull().default(0),
    queues: integer().notNull().default(0),
    value: numeric({ precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    useCampaigns: boolean().notNull().default(true),
    useKanban: boolean().notNull().default(true),
    useOpenAi: boolean().notNull().default(true),
    useIntegrations: boolean().notNull().default(true),
    useSchedules: boolean().notNull().default(true),
    useInternalChat: boolean().notNull().default(true),
    useExternalApi: boolean().notNull().default(true),
    /** Offered on the public signup page; internal plans (the platform's own) are not. */
    isPublic: boolean().notNull().default(true),
    ...timestamps,
  },
  (table) => [uniqueIndex('plans_name_unique').on(table.name)],
)

export const recurrences = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const
export type Recurrence = (typeof recurrences)[number]

/** One business-hours row per weekday, as the spec's schedule entry. */
export type ScheduleEntry = { weekday: string; weekdayEn: string; startTime: string; endTime: string }

export const companies = pgTable(
  'companies',
  {
    id: id(),
    name: text().notNull(),
    email: text().notNull().default(''),
    phone: text().notNull().default(''),
    planId: integer().references(() => plans.id, { onDelete: 'restrict' }),
    status: boolean().notNull().default(true),
    /** Last day the subscription is valid, as a calendar date. */
    dueDate: date({ mode: 'string' }),
    recurrence: text().$type<Recurrence>().notNull().default('MENSAL'),
    trialExpiration: date({ mode: 'string' }),
    /** IANA zone in which business hours are evaluated. */
    timezone: text().notNull().default('America/Sao_Paulo'),
    schedules: jsonb().$type<ScheduleEntry[]>().notNull().default([]),
    document: text().notNull().default(''),
    addressLine: text().notNull().default(''),
    city: text().notNull().default(''),
    state: text().notNull().default(''),
    zipcode: text().notNull().default(''),
    country: text().notNull().default(''),
    ...timestamps,
  },
  (table) => [uniqueIndex('companies_name_unique').on(table.name), index('companies_plan_idx').on(table.planId)],
)

export const settings = pgTable(
  'settings',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    value: text().notNull().default(''),
    ...timestamps,
  },
  (table) => [uniqueIndex('settings_company_key_unique').on(table.companyId, table.key)],
)

export const invoiceStatuses = ['paid', 'open', 'expired'] as const

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    detail: text().notNull().default(''),
    value: numeric({ precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    dueDate: date({ mode: 'string' }).notNull(),
    status: text().$type<(typeof invoiceStatuses)[number]>().notNull().default('open'),
    paidAt: date({ mode: 'string' }),
    ...timestamps,
  },
  // One invoice per company and period (its due date): the daily job may run on several instances at
  // once, and the second insert of a period is a no-op (ON CONFLICT), not a duplicate invoice.
  (table) => [uniqueIndex('invoices_company_due_unique').on(table.companyId, table.dueDate)],
)
