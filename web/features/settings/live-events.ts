// What the settings page hears (README "Realtime"): `settings` (the company's admins: a setting's new
// value, the company's hours), and the platform lists the super users' tabs show, `companies` and
// `plans` (super users only) and `helps` (everyone). Creates and edits carry the row; deletes the id.
import type { ScheduleEntry } from '../../../src/modules/companies/model.ts'
import type { CompanyRow, PlanRow } from './company-dialog.tsx'
import type { HelpRow } from './help-dialog.tsx'

export type SettingsEvent = { action: 'update'; setting: { key: string; value: string } } | { action: 'schedules'; schedules: ScheduleEntry[] }
export type CompanyEvent = { action: 'create' | 'update'; company: CompanyRow } | { action: 'delete'; companyId: number }
export type PlanEvent = { action: 'create' | 'update'; plan: PlanRow } | { action: 'delete'; planId: number }
export type HelpEvent = { action: 'create' | 'update'; help: HelpRow } | { action: 'delete'; helpId: number }

/** Replaces the row with the same id, or adds it at the end. */
export function upsertById<Row extends { id: number }>(rows: readonly Row[], row: Row): Row[] {
  return rows.some((existing) => existing.id === row.id) ? rows.map((existing) => (existing.id === row.id ? row : existing)) : [...rows, row]
}
