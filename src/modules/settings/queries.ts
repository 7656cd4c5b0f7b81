// Reading a company's settings, for this module and every other one (chatbot, tickets, campaigns...).
import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { settings } from '../../../db/schema/index.ts'
import { settingDefinitions, settingKeys, type SettingKey } from './defaults.ts'

export type CompanySettings = Record<SettingKey, string>

/** One setting of a company: the stored value, or the key's default when the row is missing. */
export async function getSetting(db: Executor, companyId: number, key: SettingKey): Promise<string> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, key)))
    .limit(1)
  return row?.value ?? settingDefinitions[key]!.defaultValue
}

/** Every known setting of a company in one query, defaults filled in for keys it has no row for. */
export async function getSettings(db: Executor, companyId: number): Promise<CompanySettings> {
  const rows = await db.select({ key: settings.key, value: settings.value }).from(settings).where(eq(settings.companyId, companyId))
  const stored = new Map(rows.map((row) => [row.key, row.value]))
  return Object.fromEntries(settingKeys.map((key) => [key, stored.get(key) ?? settingDefinitions[key]!.defaultValue])) as CompanySettings
}

/** Creates or replaces one setting of a company. */
export async function saveSetting(db: Executor, companyId: number, key: SettingKey, value: string): Promise<void> {
  await db
    .insert(settings)
    .values({ companyId, key, value })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: sql`now()` } })
}

/** The companies that set `key` to something other than `except` (its "off" value), with the value. */
export async function listCompaniesWithSetting(db: Executor, key: SettingKey, except: string): Promise<{ companyId: number; value: string }[]> {
  return db
    .select({ companyId: settings.companyId, value: settings.value })
    .from(settings)
    .where(and(eq(settings.key, key), ne(settings.value, except)))
    .orderBy(asc(settings.companyId))
}
