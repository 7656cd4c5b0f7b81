// The operator commands of issue 17 (plans/helps/companies/users changes, contact and list imports),
// run in-process through the same program the zapdesk binary builds, on this file's test database:
// a subprocess per call would re-open the database each time.
import { afterAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { contactListItems, contactLists, contacts, userTwoFactor, users } from '../../db/schema/index.ts'
import { useDatabase } from '../../cli/database.ts'
import { jsonOf, runZapdesk as zapdesk, type CliRun } from '../helpers/cli.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeContact, makePlan, makeSuper, makeTenant, signIn } from '../helpers/factories.ts'

const context = await createTestContext()
useDatabase({ db: context.db, config: context.deps.config })
// The CLI acts as the platform's first super user where a service records who acted.
await makeSuper(context)
const files = mkdtempSync(join(tmpdir(), 'zapdesk-cli-import-'))
afterAll(() => {
  useDatabase(undefined)
  rmSync(files, { recursive: true, force: true })
})

const oneLineError = (run: CliRun) => {
  expect(run.code).toBe(1)
  expect(run.stderr.trim().split('\n')).toHaveLength(1)
  return run.stderr
}

describe('operator CLI', () => {
  test('plans update and delete', async () => {
    const plan = await makePlan(context.db, { name: 'Starter CLI', useOpenAi: false })
    const updated = jsonOf<{ users: number; useOpenAi: boolean; useCampaigns: boolean; isPublic: boolean }>(
      await zapdesk('plans', 'update', 'starter cli', '--users', '9', '--enable', 'open-ai', '--disable', 'campaigns', '--private', '--json'),
    )
    expect(updated).toMatchObject({ users: 9, useOpenAi: true, useCampaigns: false, isPublic: false })
    expect(oneLineError(await zapdesk('plans', 'update', String(plan.id), '--enable', 'teleport'))).toContain('teleport')
    expect(oneLineError(await zapdesk('plans', 'update', String(plan.id)))).toContain('nothing to change')
    const tenant = await makeTenant(context)
    expect(oneLineError(await zapdesk('plans', 'delete', String(tenant.company.planId)))).toContain('ERR_PLAN_IN_USE')
    expect(jsonOf(await zapdesk('plans', 'delete', String(plan.id), '--json'))).toEqual({ deleted: true, id: plan.id, name: 'Starter CLI' })
    expect(oneLineError(await zapdesk('plans', 'delete', String(plan.id)))).toContain('no plan')
  })

  test('helps update and delete', async () => {
    const help = jsonOf<{ id: number }>(await zapdesk('helps', 'add', '--title', 'Old title', '--video', 'dQw4w9WgXcQ', '--json'))
    const updated = jsonOf<{ title: string; video: string }>(await zapdesk('helps', 'update', String(help.id), '--title', 'New title', '--json'))
    expect(updated).toMatchObject({ title: 'New title', video: 'dQw4w9WgXcQ' })
    expect((await zapdesk('helps', 'delete', String(help.id))).stdout).toContain(`Help deleted: ${help.id}`)
    expect(oneLineError(await zapdesk('helps', 'delete', String(help.id)))).toContain('ERR_NO_HELP_FOUND')
    expect(oneLineError(await zapdesk('helps', 'delete', 'abc'))).toContain('help must be an integer')
  })

  test('companies update, deactivate, activate and delete', async () => {
    const tenant = await makeTenant(context)
    const other = await makePlan(context.db, { name: 'Pro CLI' })
    const id = String(tenant.company.id)
    const updated = jsonOf<{ planId: number; dueDate: string }>(await zapdesk('companies', 'update', id, '--plan', 'pro cli', '--due-date', '2031-05-31', '--json'))
    expect(updated).toMatchObject({ planId: other.id, dueDate: '2031-05-31' })
    expect(jsonOf<{ status: boolean }>(await zapdesk('companies', 'deactivate', id, '--json')).status).toBe(false)
    // A deactivated company's admin cannot sign in; activated again, he can.
    expect((await context.api.api.auth.login.post({ email: tenant.admin.email, password: tenant.admin.password })).status).not.toBe(200)
    expect(jsonOf<{ status: boolean }>(await zapdesk('companies', 'activate', id, '--json')).status).toBe(true)
    expect((await signIn(context, tenant.admin)).token).toBeString()
    expect(oneLineError(await zapdesk('companies', 'delete', id))).toContain('--yes')
    expect(jsonOf(await zapdesk('companies', 'delete', id, '--yes', '--json'))).toMatchObject({ deleted: true, id: tenant.company.id })
    expect(oneLineError(await zapdesk('companies', 'update', id, '--name', 'Gone'))).toContain('no company')
  })

  test('users list, reset-password and reset-2fa', async () => {
    const tenant = await makeTenant(context)
    const listed = jsonOf<Array<{ email: string; companyId: number }>>(await zapdesk('users', 'list', '--company', String(tenant.company.id), '--json'))
    expect(listed.map((user) => user.email).sort()).toEqual([tenant.admin.email, tenant.agent.email].sort())
    const table = await zapdesk('users', 'list', '--company', String(tenant.company.id))
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+EMAIL\s+PROFILE\s+COMPANY$/)

    const reset = jsonOf<{ generatedPassword: string }>(await zapdesk('users', 'reset-password', tenant.agent.email, '--json'))
    expect((await context.api.api.auth.login.post({ email: tenant.agent.email, password: tenant.agent.password })).status).not.toBe(200)
    expect((await signIn(context, { email: tenant.agent.email, password: reset.generatedPassword })).token).toBeString()
    expect(oneLineError(await zapdesk('users', 'reset-password', 'nobody@example.com'))).toContain('no user')

    await context.db.insert(userTwoFactor).values({ userId: tenant.agent.id, companyId: tenant.company.id, sealedSecret: 'sealed', enabledAt: new Date() })
    expect(jsonOf(await zapdesk('users', 'reset-2fa', tenant.agent.email, '--json'))).toMatchObject({ twoFactorReset: true })
    expect(await context.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, tenant.agent.id))).toEqual([])
    const [agent] = await context.db.select().from(users).where(eq(users.id, tenant.agent.id))
    expect(agent!.tokenVersion).toBeGreaterThan(0)
  })

  test('contacts import: dry run, then the import, with a report of skipped rows', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    await makeContact(context.db, { companyId, name: 'Known', number: '5511988887777' })
    const file = join(files, 'contacts.csv')
    writeFileSync(file, 'name,number,email\nAna,5511911112222,ana@example.com\nBia,5511933334444,\nKnown again,5511988887777,\nAna twice,5511911112222,\nBad,12,\n')
    const dry = jsonOf<{ rowsRead: number; added: number; dryRun: boolean; skipped: Array<{ line: number; reason: string }> }>(
      await zapdesk('contacts', 'import', '--company', String(companyId), '--file', file, '--dry-run', '--json'),
    )
    expect(dry).toMatchObject({ dryRun: true, rowsRead: 5, added: 2 })
    expect(dry.skipped.map((row) => [row.line, row.reason])).toEqual([
      [4, 'ALREADY_EXISTS'],
      [5, 'DUPLICATED_IN_FILE'],
      [6, 'INVALID_NUMBER'],
    ])
    expect(await context.db.select().from(contacts).where(eq(contacts.companyId, companyId))).toHaveLength(1)

    const done = jsonOf<typeof dry>(await zapdesk('contacts', 'import', '--company', String(companyId), '--file', file, '--json'))
    expect(done).toMatchObject({ dryRun: false, rowsRead: 5, added: 2 })
    expect(done.skipped).toEqual(dry.skipped.map((row) => expect.objectContaining({ line: row.line, reason: row.reason })))
    expect(await context.db.select().from(contacts).where(eq(contacts.companyId, companyId))).toHaveLength(3)
    const people = await zapdesk('contacts', 'import', '--company', String(companyId), '--file', file)
    expect(people.stdout).toContain('Contacts added:')
    expect(people.stdout).toMatch(/LINE\s+REASON\s+DETAIL/)
    expect(oneLineError(await zapdesk('contacts', 'import', '--company', String(companyId), '--file', join(files, 'missing.xlsx')))).toContain('no such file')
  })

  test('contact-lists import into a list named by name, another company refused', async () => {
    const tenant = await makeTenant(context)
    const outsider = await makeTenant(context)
    const companyId = tenant.company.id
    const [list] = await context.db.insert(contactLists).values({ companyId, name: 'Leads' }).returning()
    await context.db.insert(contactListItems).values({ companyId, contactListId: list!.id, name: 'Held', number: '5511955556666', email: '' })
    const file = join(files, 'leads.csv')
    writeFileSync(file, 'name,number\nCarla,5511977778888\nHeld,5511955556666\n')
    const dry = jsonOf<{ added: number; skipped: Array<{ reason: string }> }>(
      await zapdesk('contact-lists', 'import', '--company', String(companyId), '--list', 'leads', '--file', file, '--dry-run', '--json'),
    )
    expect(dry).toMatchObject({ added: 1, skipped: [{ reason: 'ALREADY_IN_LIST' }] })
    const done = jsonOf<typeof dry>(await zapdesk('contact-lists', 'import', '--company', String(companyId), '--list', String(list!.id), '--file', file, '--json'))
    expect(done).toMatchObject({ added: 1, rowsRead: 2, skipped: [{ line: 3, reason: 'ALREADY_IN_LIST' }] })
    expect(await context.db.select().from(contactListItems).where(eq(contactListItems.contactListId, list!.id))).toHaveLength(2)
    const refused = await zapdesk('contact-lists', 'import', '--company', String(outsider.company.id), '--list', String(list!.id), '--file', file)
    expect(oneLineError(refused)).toContain('no contact list')
  })
})
