// Companies (tenants) as the platform's super users manage them, and what a company's own users may
// read or change of it (its plan, its business hours).
import { eq } from 'drizzle-orm'
import { companies } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { findPlanById } from '../plans/service.ts'
import { assertTimezone, normalizeName, normalizePhone, validSchedules } from './fields.ts'
import type { Company, CompanyCreateBody, CompanyUpdateBody, SchedulesBody } from './model.ts'
import { findCompanyView } from './queries.ts'
import { assertCompanyNameFree, duplicateErrorOr, insertCompanyRecords, saveCampaignsEnabled, type NewCompany } from './records.ts'
import { calendarDateOrNull } from './renewal.ts'

/** Renewal for the billing module: one period more inside its payment's transaction. */
export { addDays, addMonths, recurrenceMonths, renewCompanyIn, type Renewal } from './renewal.ts'
export { findCompanyTimezone, findCompanyView } from './queries.ts'
import type { Actor } from '../../contracts/roles.ts'
import { mayActOnCompany } from '../../core/tenant.ts'

/** Another company's id, for a user who is not super, is "not found": its existence is not revealed. */
function assertCanSee(actor: Actor, companyId: number): void {
  if (!mayActOnCompany(actor, companyId)) throw new AppError('ERR_NO_COMPANY_FOUND')
}

export async function getCompany(deps: Deps, input: { companyId: number; actor: Actor }): Promise<Company> {
  assertCanSee(input.actor, input.companyId)
  const company = await findCompanyView(deps.db, input.companyId)
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND')
  return company
}

async function assertPlanExists(deps: Deps, planId: number): Promise<void> {
  if (!(await findPlanById(deps.db, planId))) throw new AppError('ERR_NO_PLAN_FOUND')
}

/** A company made by a super user; with a password, its first admin signs in with the company e-mail. */
export async function createCompany(deps: Deps, input: CompanyCreateBody): Promise<Company> {
  const { password, adminName, campaignsEnabled, dueDate, phone, name: rawName, ...fields } = input
  const name = normalizeName(rawName)
  const email = (fields.email ?? '').trim()
  if (password !== undefined && email === '') throw invalidField('email', 'email is required to create the admin user')
  if (fields.timezone !== undefined) assertTimezone(fields.timezone)
  await assertPlanExists(deps, fields.planId)
  const company: NewCompany = { ...fields, name, email, phone: normalizePhone(phone), dueDate: calendarDateOrNull(dueDate) }
  // Hashing is slow: done before the transaction, which holds PGlite's only connection.
  const admin = password === undefined ? undefined : { name: adminName ? normalizeName(adminName, 'adminName') : name, email, passwordHash: await Bun.password.hash(password) }
  const created = await deps.db
    .transaction((tx) => insertCompanyRecords(tx, { company, campaignsEnabled: campaignsEnabled ?? true, admin }))
    .catch((error: unknown) => {
      throw duplicateErrorOr(error)
    })
  const view = (await findCompanyView(deps.db, created.companyId))!
  deps.bus.emit('company.changed', { companyId: created.companyId, action: 'create', company: view })
  if (created.adminId) deps.bus.emit('user.changed', { companyId: created.companyId, action: 'create', userId: created.adminId })
  return view
}

/**
 * Only the fields sent change. A plan with lower limits is accepted: what exists stays, the
 * limits bind new users, connections and queues.
 */
export async function updateCompany(deps: Deps, input: { companyId: number; changes: CompanyUpdateBody }): Promise<Company> {
  const { campaignsEnabled, dueDate, phone, name, ...fields } = input.changes
  const changes: Partial<NewCompany> = { ...fields }
  if (name !== undefined) changes.name = normalizeName(name)
  if (phone !== undefined) changes.phone = normalizePhone(phone)
  if (fields.email !== undefined) changes.email = fields.email.trim()
  // §5 "Company save": an empty or invalid due date becomes null.
  if (dueDate !== undefined) changes.dueDate = calendarDateOrNull(dueDate)
  if (fields.timezone !== undefined) assertTimezone(fields.timezone)
  if (fields.planId !== undefined) await assertPlanExists(deps, fields.planId)
  await deps.db
    .transaction(async (tx) => {
      const [existing] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, input.companyId)).for('update')
      if (!existing) throw new AppError('ERR_NO_COMPANY_FOUND')
      if (changes.name !== undefined) await assertCompanyNameFree(tx, changes.name, input.companyId)
      if (Object.keys(changes).length > 0) await tx.update(companies).set(changes).where(eq(companies.id, input.companyId))
      if (campaignsEnabled !== undefined) await saveCampaignsEnabled(tx, input.companyId, campaignsEnabled)
    })
    .catch((error: unknown) => {
      throw duplicateErrorOr(error)
    })
  const view = (await findCompanyView(deps.db, input.companyId))!
  deps.bus.emit('company.changed', { companyId: input.companyId, action: 'update', company: view })
  if (campaignsEnabled !== undefined) deps.bus.emit('setting.changed', { companyId: input.companyId, key: 'campaignsEnabled', value: String(campaignsEnabled) })
  return view
}

/** Deletes the company and, through the foreign keys, everything it owns. Never the caller's own. */
export async function deleteCompany(deps: Deps, input: { companyId: number; actor: Actor }): Promise<void> {
  if (input.companyId === input.actor.companyId) throw new AppError('ERR_NO_PERMISSION')
  const deleted = await deps.db.delete(companies).where(eq(companies.id, input.companyId)).returning({ id: companies.id })
  if (deleted.length === 0) throw new AppError('ERR_NO_COMPANY_FOUND')
  deps.bus.emit('company.changed', { companyId: input.companyId, action: 'delete' })
}

/** The company's plan with its feature flags: for the company's own users and super users. */
export async function getCompanyPlan(deps: Deps, input: { companyId: number; actor: Actor }) {
  assertCanSee(input.actor, input.companyId)
  const [company] = await deps.db
    .select({ id: companies.id, name: companies.name, planId: companies.planId })
    .from(companies)
    .where(eq(companies.id, input.companyId))
    .limit(1)
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND')
  const plan = company.planId === null ? undefined : await findPlanById(deps.db, company.planId)
  return { ...company, plan: plan ?? null }
}

/** The company's business hours (used when the setting scheduleType is 'company'). */
export async function updateCompanySchedules(deps: Deps, input: { companyId: number; actor: Actor; body: SchedulesBody }): Promise<Company> {
  assertCanSee(input.actor, input.companyId)
  if (input.body.id !== undefined && input.body.id !== input.companyId) throw invalidField('id', 'id must be the company id of the path')
  const schedules = validSchedules(input.body.schedules)
  const updated = await deps.db
    .update(companies)
    .set({ schedules })
    .where(eq(companies.id, input.companyId))
    .returning({ id: companies.id })
  if (updated.length === 0) throw new AppError('ERR_NO_COMPANY_FOUND')
  const view = (await findCompanyView(deps.db, input.companyId))!
  deps.bus.emit('company.schedules_changed', { companyId: input.companyId, schedules: view.schedules })
  deps.bus.emit('company.changed', { companyId: input.companyId, action: 'update', company: view })
  return view
}
