import type { Command } from 'commander'
import { eq } from 'drizzle-orm'
import type { Database } from '../../db/client.ts'
import { companies, plans, users } from '../../db/schema/index.ts'
import { isUniqueViolation } from '../../src/core/errors.ts'
import { addMonths } from '../../src/modules/companies/renewal.ts'
import { assertWithinPlanLimit } from '../../src/modules/plans/limits.ts'
import { createDefaultSettings } from '../../src/modules/settings/defaults.ts'
import { findUserByEmail } from '../../src/modules/users/queries.ts'
import { SUPER_EMAIL } from '../../src/seed.ts'
import { EMBEDDED_DATABASE_NOTE, todayIso, withDatabase } from '../database.ts'
import { findCompanyByReference, findPlatformCompany } from '../lookups.ts'
import { emailOption, passwordOption, textOption } from '../options.ts'
import { CliError, printJson, printRecord } from '../output.ts'

// The names seedPlatform gives the platform's plan and company, so that a later seed finds these.
const PLATFORM_PLAN = 'Platform'
const PLATFORM_COMPANY = 'Zapdesk'

/** The platform's own company, made as the seed makes it when no super user exists yet. */
async function ensurePlatformCompany(db: Database) {
  const existing = (await findPlatformCompany(db)) ?? (await db.select().from(companies).where(eq(companies.name, PLATFORM_COMPANY)).limit(1))[0]
  if (existing) return existing
  return db.transaction(async (tx) => {
    const [plan] = await tx.select().from(plans).where(eq(plans.name, PLATFORM_PLAN)).limit(1)
    const planId = plan?.id ?? (await tx.insert(plans).values({ name: PLATFORM_PLAN, users: 100, connections: 100, queues: 100, value: 0 }).returning())[0]!.id
    const [company] = await tx
      .insert(companies)
      .values({ name: PLATFORM_COMPANY, email: SUPER_EMAIL, planId, recurrence: 'MENSAL', status: true, dueDate: addMonths(todayIso(), 1200) })
      .returning()
    await createDefaultSettings(tx, company!.id)
    return company!
  })
}

type CreateSuperOptions = { email: string; name: string; password: string; company?: string; json?: boolean }

export function registerUsers(program: Command): void {
  const group = program.command('users').description('platform users').addHelpText('after', EMBEDDED_DATABASE_NOTE)

  group
    .command('create-super')
    .description('create a platform super user (manages companies, plans, helps and announcements)')
    .requiredOption('--email <email>', 'login e-mail, unique on the platform', emailOption)
    .requiredOption('--name <name>', 'name, 2 to 50 characters', textOption('name', { min: 2, max: 50 }))
    .requiredOption('--password <password>', 'password: 8+ characters with an uppercase letter, a lowercase letter and a digit', passwordOption)
    .option('--company <company>', "company id or name to put the user in (default: the platform's company)")
    .option('--json', 'print the user as JSON')
    .addHelpText('after', '\nExample: zapdesk users create-super --email ops@example.com --name "Ops" --password "Long-enough-1"')
    .action(async (options: CreateSuperOptions) => {
      const passwordHash = await Bun.password.hash(options.password)
      const created = await withDatabase(async (db) => {
        if (await findUserByEmail(db, options.email)) throw new CliError(`a user with the e-mail ${options.email} exists already`)
        const company = options.company ? await findCompanyByReference(db, options.company) : await ensurePlatformCompany(db)
        const [user] = await db
          .transaction(async (tx) => {
            await assertWithinPlanLimit(tx, company.id, 'users')
            return tx
              .insert(users)
              .values({ companyId: company.id, name: options.name, email: options.email, passwordHash, profile: 'admin', super: true })
              .returning({ id: users.id, name: users.name, email: users.email, companyId: users.companyId, profile: users.profile, super: users.super })
          })
          .catch((error: unknown) => {
            throw isUniqueViolation(error) ? new CliError(`a user with the e-mail ${options.email} exists already`) : error
          })
        return { ...user!, companyName: company.name }
      })
      if (options.json) return printJson(created)
      printRecord([
        ['Super user created', `${created.id} (${created.name})`],
        ['Login', created.email],
        ['Company', `${created.companyId} (${created.companyName})`],
      ])
    })
}
