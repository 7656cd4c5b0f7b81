// Plans, companies and their settings. A plan whose name Zapdesk has already is shared, not duplicated;
// a company whose name is taken is a conflict: it is reported and nothing of it is imported.
import { inArray, sql } from 'drizzle-orm'
import type { Executor, Transaction } from '../../db/client.ts'
import { companies, plans, recurrences, settings, type Recurrence, type ScheduleEntry } from '../../db/schema/index.ts'
import { insertCompanyRecords } from '../../src/modules/companies/records.ts'
import { isSettingKey, settingDefinitions } from '../../src/modules/settings/defaults.ts'
import { companiesOf, type Step } from './context.ts'
import { companyColumn, flag, integer, keyOf, optionalText, text } from './source.ts'

export const planStep: Step = {
  entity: 'Plans',
  // With --company, only that company's plan.
  query: { from: '"Plans" p', columns: 'p.*', keys: ['p."id"'], company: (id) => `p."id" IN (SELECT c."planId" FROM "Companies" c WHERE c."id" = ${id})` },
  async write(tx, rows, context) {
    const existing = await tx.select({ id: plans.id, name: plans.name }).from(plans).where(inArray(sql`lower(${plans.name})`, rows.map((row) => text(row, 'name').trim().toLowerCase())))
    const byName = new Map(existing.map((plan) => [plan.name.toLowerCase(), plan.id]))
    const pairs = []
    for (const row of rows) {
      const name = text(row, 'name').trim()
      let id = byName.get(name.toLowerCase())
      if (id !== undefined) {
        context.report.issue('Plans', keyOf(row), 'PLAN_MATCHED', `Zapdesk has a plan named "${name}" already: its companies are put on it`)
      } else {
        const [created] = await tx
          .insert(plans)
          .values({
            name,
            users: integer(row, 'users') ?? 0,
            connections: integer(row, 'connections') ?? 0,
            queues: integer(row, 'queues') ?? 0,
            value: Number(row.value ?? 0) || 0,
            useCampaigns: flag(row, 'useCampaigns', true),
            useKanban: flag(row, 'useKanban', true),
            useOpenAi: flag(row, 'useOpenAi', true),
            useIntegrations: flag(row, 'useIntegrations', true),
            useSchedules: flag(row, 'useSchedules', true),
            useInternalChat: flag(row, 'useInternalChat', true),
            useExternalApi: flag(row, 'useExternalApi', true),
          })
          .returning({ id: plans.id })
        id = created!.id
        byName.set(name.toLowerCase(), id)
        context.report.of('Plans').imported += 1
      }
      pairs.push({ sourceId: keyOf(row), targetId: id, companyId: null })
    }
    await context.mappings.record(tx, 'Plans', pairs)
  },
}

/** Whaticket's weekday rows are ours (weekday, weekdayEn, startTime, endTime); anything else is dropped. */
function schedulesOf(value: unknown): ScheduleEntry[] {
  if (!Array.isArray(value)) return []
  const time = (raw: unknown) => (typeof raw === 'string' && /^\d{2}:\d{2}$/.test(raw) ? raw : '')
  return value
    .filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null && typeof (entry as { weekdayEn?: unknown }).weekdayEn === 'string')
    .map((entry) => ({ weekday: String(entry.weekday ?? entry.weekdayEn), weekdayEn: String(entry.weekdayEn), startTime: time(entry.startTime), endTime: time(entry.endTime) }))
}

const recurrenceOf = (value: string): Recurrence => ((recurrences as readonly string[]).includes(value.toUpperCase()) ? (value.toUpperCase() as Recurrence) : 'MENSAL')

export const companyStep: Step = {
  entity: 'Companies',
  query: { from: '"Companies" c', columns: `c.*, to_char(c."dueDate" AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') AS "dueDay"`, keys: ['c."id"'], company: companyColumn('c."id"') },
  async write(tx, rows, context) {
    const planIds = await context.mappings.resolve(tx, 'Plans', rows.map((row) => optionalText(row, 'planId')))
    for (const row of rows) {
      const name = text(row, 'name').trim().slice(0, 50)
      const [taken] = await tx.select({ id: companies.id }).from(companies).where(sql`lower(${companies.name}) = ${name.toLowerCase()}`).limit(1)
      if (taken || name.length < 2) {
        const message = taken ? `Zapdesk has a company named "${name}" already (id ${taken.id}): rename one of them and run the import again` : 'the name is shorter than 2 characters'
        context.report.issue('Companies', keyOf(row), 'COMPANY_CONFLICT', message, { skipped: true })
        continue
      }
      const { companyId } = await insertCompanyRecords(tx as Transaction, {
        company: {
          name,
          email: text(row, 'email').trim(),
          phone: text(row, 'phone').replace(/\D/g, '').slice(0, 15),
          planId: planIds.get(text(row, 'planId')) ?? null,
          status: flag(row, 'status', true),
          dueDate: optionalText(row, 'dueDay') ?? null,
          recurrence: recurrenceOf(text(row, 'recurrence')),
          schedules: schedulesOf(row.schedules),
        },
        campaignsEnabled: true,
      })
      context.report.of('Companies').imported += 1
      await context.mappings.record(tx, 'Companies', [{ sourceId: keyOf(row), targetId: companyId, companyId }])
    }
  },
}

/** Known keys with an accepted value replace the defaults the company was created with; others are reported. */
export const settingStep: Step = {
  entity: 'Settings',
  query: { from: '"Settings" s', columns: 's.*', keys: ['s."id"'], company: companyColumn('s."companyId"') },
  async write(tx, rows, context) {
    const owners = await companiesOf(tx, context, 'Settings', rows)
    const pairs = []
    for (const [row, companyId] of owners) {
      const key = text(row, 'key')
      const value = text(row, 'value')
      const definition = isSettingKey(key) ? settingDefinitions[key] : undefined
      const refused = !definition ? 'Zapdesk has no such setting' : definition.allowed && !definition.allowed.includes(value) ? `"${value}" is not one of ${definition.allowed.join(', ')}` : definition.validate?.(value)
      if (refused) {
        context.report.issue('Settings', keyOf(row), 'SETTING_LEFT_OUT', `${key}: ${refused}`, { skipped: true })
        continue
      }
      const [saved] = await upsertSetting(tx, companyId, key, value)
      context.report.of('Settings').imported += 1
      pairs.push({ sourceId: keyOf(row), targetId: saved!.id, companyId })
    }
    await context.mappings.record(tx, 'Settings', pairs)
  },
}

function upsertSetting(tx: Executor, companyId: number, key: string, value: string) {
  return tx
    .insert(settings)
    .values({ companyId, key, value })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value: sql`excluded.value`, updatedAt: new Date() } })
    .returning({ id: settings.id })
}
