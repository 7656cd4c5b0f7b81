import { randomBytes } from 'node:crypto'
import type { Command } from 'commander'
import type { Recurrence } from '../../db/schema/index.ts'
import { CompanyCreateBody, CompanyUpdateBody, type Company } from '../../src/modules/companies/model.ts'
import { findAllCompanies } from '../../src/modules/companies/queries.ts'
import { addMonths, recurrenceMonths, renewCompany } from '../../src/modules/companies/renewal.ts'
import { createCompany, deleteCompany, updateCompany } from '../../src/modules/companies/service.ts'
import { operatorActor } from '../operator.ts'
import { EMBEDDED_DATABASE_NOTE, todayIso, withDatabase } from '../database.ts'
import { cliDeps } from '../deps.ts'
import { findCompanyByReference, findPlanByReference } from '../lookups.ts'
import { dateOption, emailOption, passwordOption, recurrenceOption, textOption } from '../options.ts'
import { CliError, printJson, printRecord, printTable } from '../output.ts'
import { assertMatches } from '../validate.ts'

type CompanyCreateOptions = {
  name: string
  email: string
  plan: string
  password?: string
  adminName?: string
  phone?: string
  dueDate?: string
  recurrence: Recurrence
  admin: boolean
  json?: boolean
}

type CompanyUpdateOptions = { name?: string; email?: string; plan?: string; phone?: string; dueDate?: string; recurrence?: Recurrence; json?: boolean }

const generatedPassword = () => `Zd7-${randomBytes(9).toString('base64url')}`

export function registerCompanies(program: Command): void {
  const group = program.command('companies').description('the companies (tenants) on the platform').addHelpText('after', EMBEDDED_DATABASE_NOTE)

  group
    .command('create')
    .description("create a company on a plan, with its first admin (who signs in with the company's e-mail)")
    .requiredOption('--name <name>', 'company name, 2 to 50 characters, unique', textOption('name', { min: 2, max: 50 }))
    .requiredOption('--email <email>', "the company's e-mail, also its admin's login", emailOption)
    .requiredOption('--plan <plan>', 'plan id or name')
    .option('--password <password>', "the admin's password: 8+ characters with an uppercase letter, a lowercase letter and a digit (default: generated and printed once)", passwordOption)
    .option('--admin-name <name>', "the admin's name (default: the company name)", textOption('admin-name', { min: 2, max: 50 }))
    .option('--phone <phone>', 'phone, digits (a mask like (99) 99999-9999 is fine)')
    .option('--due-date <date>', 'last day of the subscription, YYYY-MM-DD (default: one recurrence period from today)', dateOption)
    .option('--recurrence <recurrence>', 'MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL or ANUAL', recurrenceOption, 'MENSAL')
    .option('--no-admin', 'create the company without an admin user')
    .option('--json', 'print the company as JSON')
    .addHelpText('after', '\nExample: zapdesk companies create --name "Acme" --email admin@acme.com --plan Basic --password "S3cret-pass"')
    .action(async (options: CompanyCreateOptions) => {
      if (!options.admin && options.password !== undefined) throw new CliError('--password and --no-admin do not go together')
      const password = options.admin ? (options.password ?? generatedPassword()) : undefined
      const created = await withDatabase(async (db, config) => {
        const plan = await findPlanByReference(db, options.plan)
        const body = {
          name: options.name,
          email: options.email,
          planId: plan.id,
          recurrence: options.recurrence,
          dueDate: options.dueDate ?? addMonths(todayIso(), recurrenceMonths[options.recurrence]),
          ...(options.phone !== undefined && { phone: options.phone }),
          ...(password !== undefined && { password }),
          ...(options.adminName !== undefined && { adminName: options.adminName }),
        }
        assertMatches(CompanyCreateBody, body)
        return createCompany(cliDeps(db, config), body)
      })
      const generated = options.admin && options.password === undefined ? password : undefined
      if (options.json) return printJson({ ...created, admin: options.admin ? { email: created.email, ...(generated && { generatedPassword: generated }) } : null })
      printRecord([
        ['Company created', `${created.id} (${created.name})`],
        ['Plan', created.plan ? `${created.plan.id} (${created.plan.name})` : '-'],
        ['Due date', `${created.dueDate ?? 'never'} (${created.recurrence})`],
        ['Admin login', options.admin ? created.email : 'none (--no-admin)'],
        ...(generated ? [['Admin password', `${generated}  (generated, shown only now)`] as [string, string]] : []),
      ])
    })

  group
    .command('list')
    .description('list the companies by name')
    .option('--json', 'print the companies as JSON')
    .action(async (options: { json?: boolean }) => {
      const companies = await withDatabase((db) => findAllCompanies(db))
      if (options.json) return printJson(companies)
      printTable<Company>(companies, [
        { header: 'ID', value: (company) => company.id },
        { header: 'NAME', value: (company) => company.name },
        { header: 'EMAIL', value: (company) => company.email },
        { header: 'PLAN', value: (company) => company.plan?.name },
        { header: 'STATUS', value: (company) => (company.status ? 'active' : 'inactive') },
        { header: 'DUE DATE', value: (company) => company.dueDate ?? 'never' },
        { header: 'RECURRENCE', value: (company) => company.recurrence },
      ])
    })

  group
    .command('renew')
    .description("add one period to the company's due date, by its recurrence (MENSAL 1 month ... ANUAL 12)")
    .argument('<company>', 'company id or name')
    .option('--json', 'print the company as JSON')
    .addHelpText('after', '\nAn early renewal keeps the days left; a lapsed company gets a full period from today.')
    .action(async (reference: string, options: { json?: boolean }) => {
      const { previousDueDate, company } = await withDatabase(async (db, config) => {
        const existing = await findCompanyByReference(db, reference)
        const renewed = await renewCompany(cliDeps(db, config), { companyId: existing.id })
        return { previousDueDate: existing.dueDate, company: renewed }
      })
      if (options.json) return printJson({ ...company, previousDueDate })
      printRecord([
        ['Company renewed', `${company.id} (${company.name})`],
        ['Due date', `${previousDueDate ?? 'none'} -> ${company.dueDate} (${company.recurrence})`],
      ])
    })

  /** Applies the changes to the company named by id or name; the changed company. */
  const changeCompany = (reference: string, changes: (planId: (plan: string) => Promise<number>) => Promise<CompanyUpdateBody>) =>
    withDatabase(async (db, config) => {
      const existing = await findCompanyByReference(db, reference)
      const body = await changes(async (plan) => (await findPlanByReference(db, plan)).id)
      assertMatches(CompanyUpdateBody, body)
      return updateCompany(cliDeps(db, config), { companyId: existing.id, changes: body })
    })

  const printCompany = (title: string, company: Company) =>
    printRecord([
      [title, `${company.id} (${company.name})`],
      ['Status', company.status ? 'active' : 'inactive'],
      ['Plan', company.plan ? `${company.plan.id} (${company.plan.name})` : '-'],
      ['Due date', `${company.dueDate ?? 'never'} (${company.recurrence})`],
    ])

  group
    .command('update')
    .description('change a company: only the options given change')
    .argument('<company>', 'company id or name')
    .option('--name <name>', 'company name, 2 to 50 characters, unique', textOption('name', { min: 2, max: 50 }))
    .option('--email <email>', "the company's e-mail", emailOption)
    .option('--plan <plan>', 'plan id or name')
    .option('--phone <phone>', 'phone, digits')
    .option('--due-date <date>', 'last day of the subscription, YYYY-MM-DD', dateOption)
    .option('--recurrence <recurrence>', 'MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL or ANUAL', recurrenceOption)
    .option('--json', 'print the company as JSON')
    .addHelpText('after', '\nExample: zapdesk companies update Acme --plan Pro --due-date 2027-01-31')
    .action(async (reference: string, options: CompanyUpdateOptions) => {
      const { json, plan, ...fields } = options
      if (plan === undefined && Object.values(fields).every((value) => value === undefined)) throw new CliError('nothing to change (see: zapdesk companies update --help)')
      const company = await changeCompany(reference, async (planId) => ({
        ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
        ...(plan !== undefined && { planId: await planId(plan) }),
      }))
      if (json) return printJson(company)
      printCompany('Company updated', company)
    })

  for (const [name, status, what] of [
    ['activate', true, 'let the company in again'],
    ['deactivate', false, "block the company's users from signing in (its data stays)"],
  ] as const) {
    group
      .command(name)
      .description(what)
      .argument('<company>', 'company id or name')
      .option('--json', 'print the company as JSON')
      .action(async (reference: string, options: { json?: boolean }) => {
        const company = await changeCompany(reference, async () => ({ status }))
        if (options.json) return printJson(company)
        printCompany(status ? 'Company activated' : 'Company deactivated', company)
      })
  }

  group
    .command('delete')
    .description('delete a company and everything it owns (users, tickets, contacts, messages); cannot be undone')
    .argument('<company>', 'company id or name')
    .requiredOption('--yes', 'confirm the deletion')
    .option('--json', 'print the result as JSON')
    .action(async (reference: string, options: { json?: boolean }) => {
      const company = await withDatabase(async (db, config) => {
        const existing = await findCompanyByReference(db, reference)
        const actor = await operatorActor(db).catch(() => ({ userId: 0, companyId: 0, profile: 'admin' as const, super: true }))
        await deleteCompany(cliDeps(db, config), { companyId: existing.id, actor })
        return existing
      })
      if (options.json) return printJson({ deleted: true, id: company.id, name: company.name })
      console.log(`Company deleted: ${company.id} (${company.name})`)
    })
}
