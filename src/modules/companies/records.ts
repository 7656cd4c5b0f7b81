// Writing a company's rows: the company, its settings and optionally its first admin, in the caller's
// transaction. Shared by the super users' "new company" and the public signup.
import { sql } from 'drizzle-orm'
import type { Transaction } from '../../../db/client.ts'
import { companies, settings, users } from '../../../db/schema/index.ts'
import { AppError, isUniqueViolation } from '../../core/errors.ts'
import { createDefaultSettings } from '../settings/defaults.ts'
import { companyNameTaken, userEmailTaken } from './queries.ts'

export type NewCompany = Omit<typeof companies.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>
export type NewAdmin = { name: string; email: string; passwordHash: string }

/** Stores campaignsEnabled as the §9 setting ('true' / 'false'), creating the row if it is missing. */
export async function saveCampaignsEnabled(tx: Transaction, companyId: number, enabled: boolean): Promise<void> {
  await tx
    .insert(settings)
    .values({ companyId, key: 'campaignsEnabled', value: String(enabled) })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value: sql`excluded.value`, updatedAt: new Date() } })
}

/** Duplicate names and e-mails are checked first for a clear answer; the unique indexes settle races. */
export function duplicateErrorOr(error: unknown): unknown {
  if (isUniqueViolation(error, 'users_email_unique')) return new AppError('ERR_EMAIL_ALREADY_EXISTS')
  if (isUniqueViolation(error, 'companies_name_unique')) return new AppError('ERR_COMPANY_NAME_ALREADY_EXISTS')
  return error
}

export async function assertCompanyNameFree(tx: Transaction, name: string, exceptCompanyId?: number): Promise<void> {
  if (await companyNameTaken(tx, name, exceptCompanyId)) throw new AppError('ERR_COMPANY_NAME_ALREADY_EXISTS')
}

export async function insertCompanyRecords(
  tx: Transaction,
  input: { company: NewCompany; campaignsEnabled: boolean; admin?: NewAdmin },
): Promise<{ companyId: number; adminId?: number }> {
  await assertCompanyNameFree(tx, input.company.name)
  if (input.admin && (await userEmailTaken(tx, input.admin.email))) throw new AppError('ERR_EMAIL_ALREADY_EXISTS')
  const [company] = await tx.insert(companies).values(input.company).returning({ id: companies.id })
  const companyId = company!.id
  await createDefaultSettings(tx, companyId)
  await saveCampaignsEnabled(tx, companyId, input.campaignsEnabled)
  if (!input.admin) return { companyId }
  const [admin] = await tx
    .insert(users)
    .values({ companyId, ...input.admin, profile: 'admin', super: false })
    .returning({ id: users.id })
  return { companyId, adminId: admin!.id }
}
