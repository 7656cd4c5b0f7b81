import type { Command } from 'commander'
import { asc, eq, sql } from 'drizzle-orm'
import { randomBytes } from 'node:crypto'
import { resetUserTwoFactor } from '../../src/modules/auth/two-factor.ts'
import { cliDeps } from '../deps.ts'
import { operatorActor } from '../operator.ts'
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
import { CliError, printJson, printRecord, printTable } from '../output.ts'

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

  group
    .command('list')
    .description('list the users, by company then name')
    .option('--company <company>', 'only the users of this company (id or name)')
    .option('--json', 'print the users as JSON')
    .action(async (options: { company?: string; json?: boolean }) => {
      const rows = await withDatabase(async (db) => {
        const company = options.company ? await findCompanyByReference(db, options.company) : undefined
        return db
          .select({ id: users.id, name: users.name, email: users.email, profile: users.profile, super: users.super, companyId: users.companyId, companyName: companies.name })
          .from(users)
          .innerJoin(companies, eq(companies.id, users.companyId))
          .where(company ? eq(users.companyId, company.id) : undefined)
          .orderBy(asc(companies.name), asc(users.name))
      })
      if (options.json) return printJson(rows)
      printTable(rows, [
        { header: 'ID', value: (user) => user.id },
        { header: 'NAME', value: (user) => user.name },
        { header: 'EMAIL', value: (user) => user.email },
        { header: 'PROFILE', value: (user) => (user.super ? `${user.profile} (super)` : user.profile) },
        { header: 'COMPANY', value: (user) => `${user.companyId} (${user.companyName})` },
      ])
    })

  group
    .command('reset-password')
    .description("set a user's password and sign him out everywhere")
    .argument('<email>', "the user's login e-mail", emailOption)
    .option('--password <password>', 'the new password (default: generated and printed once)', passwordOption)
    .option('--json', 'print the result as JSON')
    .action(async (email: string, options: { password?: string; json?: boolean }) => {
      const password = options.password ?? `Zd7-${randomBytes(9).toString('base64url')}`
      const passwordHash = await Bun.password.hash(password)
      const user = await withDatabase(async (db) => {
        const found = await findUserByEmail(db, email)
        if (!found) throw new CliError(`no user with the e-mail ${email} (see: zapdesk users list)`)
        // A new token version ends every session the old password opened.
        await db.update(users).set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, online: false }).where(eq(users.id, found.id))
        return found
      })
      const generated = options.password === undefined ? password : undefined
      if (options.json) return printJson({ id: user.id, email: user.email, ...(generated && { generatedPassword: generated }) })
      printRecord([
        ['Password reset', `${user.id} (${user.email})`],
        ...(generated ? [['New password', `${generated}  (generated, shown only now)`] as [string, string]] : []),
      ])
    })

  group
    .command('reset-2fa')
    .description("remove a user's two-factor authentication (a lost phone); he sets it up again at his next sign-in if required")
    .argument('<email>', "the user's login e-mail", emailOption)
    .option('--json', 'print the result as JSON')
    .action(async (email: string, options: { json?: boolean }) => {
      const user = await withDatabase(async (db, config) => {
        const found = await findUserByEmail(db, email)
        if (!found) throw new CliError(`no user with the e-mail ${email} (see: zapdesk users list)`)
        await resetUserTwoFactor(cliDeps(db, config), await operatorActor(db), found.id)
        return found
      })
      if (options.json) return printJson({ id: user.id, email: user.email, twoFactorReset: true })
      console.log(`Two-factor authentication reset: ${user.id} (${user.email})`)
    })
}
