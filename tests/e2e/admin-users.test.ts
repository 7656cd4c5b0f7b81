// /users in the browser (§2 "Users", §3 User, §5 User, §6 user-modal:editProfile/editQueues, §7 Users
// and the `user` channel, §8): an admin creates an agent with one queue (after the §5 checks and the
// server's e-mail refusal), edits him, a second admin's page follows live, deletes another user and is
// refused deleting himself; then the new agent signs in and sees only his queue's tickets. Infinite
// scroll, the plan's user limit, pt/es spot checks, the admin gate, screenshots.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { userQueues, users } from '../../db/schema/index.ts'
import { makeConnection, makeContact, makeQueue, makeTenant, makeTicket, makeUser, signIn } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, signInTo, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness()
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

type Tenant = Awaited<ReturnType<typeof makeTenant>>
// The first two tests build on each other: the agent created in the browser then signs in.
let tenant: Tenant
let support: Awaited<ReturnType<typeof makeQueue>>
let sales: Awaited<ReturnType<typeof makeQueue>>
const bruno = { name: 'Bruno Reis', email: 'bruno.reis@example.com', password: 'Bruno123', newPassword: 'Bruno-234' }

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) })
}

/** The latest toast with this text (several may be on screen at once). */
async function toast(page: Page, text: string) {
  await page.getByText(text, { exact: true }).last().waitFor()
}

async function storedUser(email: string) {
  const [user] = await harness.context.db.select().from(users).where(eq(users.email, email))
  return user
}

describeInBrowser('users page', () => {
  test('an admin creates an agent with one queue (§5 first), edits him and deletes another user; a second admin follows live', async () => {
    tenant = await makeTenant(harness.context)
    const companyId = tenant.company.id
    support = await makeQueue(harness.context.db, { companyId, name: 'Suporte', color: '#1565c0' })
    sales = await makeQueue(harness.context.db, { companyId, name: 'Vendas', color: '#c62828' })
    await makeConnection(harness.context.db, { companyId, name: 'Loja', isDefault: true })
    const ana = await makeUser(harness.context.db, { companyId, profile: 'admin', name: 'Ana Lima', email: 'ana.lima@example.com' })
    const carlos = await makeUser(harness.context.db, { companyId, profile: 'admin', name: 'Carlos Souza' })
    await makeUser(harness.context.db, { companyId, profile: 'user', name: 'Otto Temporário' })

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, ana)
    // Both pages follow changes made elsewhere: their sockets are registered before those.
    await withLiveSocket(page, () => page.goto('/users'))
    await page.getByRole('heading', { name: 'Users' }).waitFor()
    await row(page, 'Otto Temporário').waitFor()
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['Name', 'E-mail', 'Profile', 'Queues', 'Default connection', 'Actions'])
    await row(page, 'Ana Lima').getByRole('cell', { name: 'Administrator' }).waitFor()

    const second = await openPage(harness)
    await signInTo(second.page, carlos, '/users')
    await row(second.page, 'Otto Temporário').waitFor()

    // §5 before sending: nothing reaches the server.
    await page.getByRole('button', { name: 'Add user' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add user' })
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.getByText('Enter a name, 2 to 50 characters.').waitFor()
    await dialog.getByText('Enter a valid e-mail address.').waitFor()
    await dialog.getByText('Enter a password: at least 8 characters, with an uppercase letter, a lowercase letter and a digit.').waitFor()
    await dialog.getByRole('textbox', { name: 'Name' }).fill('B')
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('bruno@')
    await dialog.getByLabel('Password', { exact: true }).fill('abcd')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.getByText('Use at least 8 characters, with an uppercase letter, a lowercase letter and a digit.').waitFor()
    expect(await dialog.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBe('true')
    expect(await dialog.getByRole('textbox', { name: 'E-mail' }).getAttribute('aria-invalid')).toBe('true')
    expect((await harness.context.db.select().from(users).where(eq(users.companyId, companyId))).length).toBe(5)

    // Show/hide the password.
    const password = dialog.getByLabel('Password', { exact: true })
    expect(await password.getAttribute('type')).toBe('password')
    await dialog.getByRole('button', { name: 'Show password' }).click()
    expect(await password.getAttribute('type')).toBe('text')
    await dialog.getByRole('button', { name: 'Show password' }).click()

    // The server's refusal lands on its field: the e-mail belongs to someone else.
    await dialog.getByRole('textbox', { name: 'Name' }).fill(bruno.name)
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill(tenant.agent.email)
    await password.fill(bruno.password)
    await dialog.locator('label.queue-choice', { hasText: 'Suporte' }).click()
    expect(await dialog.getByRole('checkbox', { name: 'Suporte' }).isChecked()).toBe(true)
    expect(await dialog.getByRole('checkbox', { name: 'Vendas' }).isChecked()).toBe(false)
    await dialog.getByRole('button', { name: /Default connection/ }).click()
    await page.getByRole('option', { name: 'Loja' }).click()
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.locator('.field-error', { hasText: 'This e-mail address is already in use.' }).waitFor()

    await dialog.getByRole('textbox', { name: 'E-mail' }).fill(bruno.email)
    // Changing the refused value clears its error until the next check.
    expect(await dialog.locator('.field-error', { hasText: 'This e-mail address is already in use.' }).count()).toBe(0)
    mkdirSync(screenshots, { recursive: true })
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.screenshot({ path: join(screenshots, 'users-dialog.png') })
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await toast(page, 'User saved successfully.')
    const created = row(page, bruno.name)
    await created.getByRole('cell', { name: 'Agent' }).waitFor()
    await created.getByRole('cell', { name: 'Suporte' }).waitFor()
    await created.getByRole('cell', { name: 'Loja' }).waitFor()
    const stored = await storedUser(bruno.email)
    expect(stored).toMatchObject({ name: bruno.name, profile: 'user', allTicket: 'desabled', companyId })
    const memberships = await harness.context.db.select({ queueId: userQueues.queueId }).from(userQueues).where(eq(userQueues.userId, stored!.id))
    expect(memberships.map((membership) => membership.queueId)).toEqual([support.id])
    // The second admin's page, untouched, has him too.
    await row(second.page, bruno.name).getByRole('cell', { name: 'Suporte' }).waitFor()

    // Edit: the form starts from his values; the password stays empty (optional on an edit).
    await created.getByRole('button', { name: `Edit ${bruno.name}` }).click()
    const editing = page.getByRole('dialog', { name: 'Edit user' })
    expect(await editing.getByRole('textbox', { name: 'E-mail' }).inputValue()).toBe(bruno.email)
    expect(await editing.getByLabel('Password', { exact: true }).inputValue()).toBe('')
    expect(await editing.getByRole('checkbox', { name: 'Suporte' }).isChecked()).toBe(true)
    await editing.getByRole('button', { name: /Profile/ }).getByText('Agent').waitFor()
    await editing.getByText('Leave it empty to keep the current password.').waitFor()
    await editing.getByRole('textbox', { name: 'Name' }).fill('Bruno Reis Silva')
    await editing.getByLabel('Password', { exact: true }).fill(bruno.newPassword)
    await editing.getByText('Sees pending tickets without a queue').click()
    await editing.getByRole('button', { name: 'Save', exact: true }).click()
    await editing.waitFor({ state: 'detached' })
    await toast(page, 'User saved successfully.')
    bruno.name = 'Bruno Reis Silva'
    await row(page, bruno.name).waitFor()
    await row(second.page, bruno.name).waitFor()
    expect(await row(second.page, 'Bruno Reis').count()).toBe(0)
    expect(await storedUser(bruno.email)).toMatchObject({ name: bruno.name, allTicket: 'enabled' })

    // Delete another user, after the confirmation; both pages lose the row.
    await row(page, 'Otto Temporário').getByRole('button', { name: 'Delete Otto Temporário' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete user' })
    await confirm.getByText('Do you really want to delete this record?').waitFor()
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await toast(page, 'User deleted successfully.')
    await row(page, 'Otto Temporário').waitFor({ state: 'detached' })
    await row(second.page, 'Otto Temporário').waitFor({ state: 'detached' })

    // Deleting oneself: the server says no, in words (§8 ERR_CANNOT_DELETE_SELF); the dialog stays.
    await row(page, 'Ana Lima').getByRole('button', { name: 'Delete Ana Lima' }).click()
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await toast(page, 'You cannot delete your own user.')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'detached' })
    expect(await storedUser('ana.lima@example.com')).toBeDefined()

    // A user created elsewhere arrives live; the search narrows the list on the server.
    const elsewhere = await tenant.asAdmin.api.users.post({ name: 'Diana Prado', email: 'diana.prado@example.com', password: 'Diana123', queueIds: [sales.id] })
    expect(elsewhere.status).toBe(200)
    await row(page, 'Diana Prado').getByRole('cell', { name: 'Vendas' }).waitFor()
    await page.getByRole('searchbox', { name: 'Search users' }).fill('bruno')
    await waitForRows(page, 1)
    await row(page, bruno.name).waitFor()
    await page.getByRole('searchbox', { name: 'Search users' }).fill('')
    await row(page, 'Diana Prado').waitFor()

    await closeToasts(page)
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.screenshot({ path: join(screenshots, 'users.png') })
    // The 409 (e-mail in use) and the 400 (deleting oneself) are the failed requests on purpose.
    expect(unexpectedErrors(problems, [409, 400])).toEqual([])
    expect(unexpectedErrors(second.problems)).toEqual([])
    await second.browserContext.close()
    await browserContext.close()
  }, E2E_TIMEOUT * 4)

  test("the new agent signs in and sees only his queue's tickets", async () => {
    const companyId = tenant.company.id
    const inSupport = await makeContact(harness.context.db, { companyId, name: 'Cliente Suporte' })
    const inSales = await makeContact(harness.context.db, { companyId, name: 'Cliente Vendas' })
    const supportTicket = await makeTicket(harness.context.db, { companyId, contactId: inSupport.id, queueId: support.id, status: 'pending' })
    await makeTicket(harness.context.db, { companyId, contactId: inSales.id, queueId: sales.id, status: 'pending' })

    // Through the API with his own token: the server's answer.
    const session = await signIn(harness.context, { email: bruno.email, password: bruno.newPassword })
    const listed = await harness.context.as(session.token).api.tickets.get({ query: { status: 'pending' } })
    expect(listed.status).toBe(200)
    expect(listed.data!.tickets.map((ticket) => ticket.id)).toEqual([supportTicket.id])

    // And in his inbox.
    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, { email: bruno.email, password: bruno.newPassword })
    await page.getByRole('tab', { name: /^Pending 1$/ }).click()
    const pending = page.getByRole('grid', { name: 'Pending tickets' })
    await pending.getByRole('row').filter({ hasText: 'Cliente Suporte' }).waitFor()
    expect(await pending.getByRole('row').filter({ hasText: 'Cliente Vendas' }).count()).toBe(0)
    expect(await page.getByText('Cliente Vendas').count()).toBe(0)
    // He is an agent: the users page turns him away (§6).
    await page.goto('/users')
    await page.getByText('You do not have permission to access this page.').waitFor()
    // The gate redirects after 1 s; the next page's load on a busy machine takes what it takes.
    await page.waitForURL((url) => url.pathname !== '/users', { timeout: 20_000 })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test("infinite scroll, the plan's user limit, pt and es, dark theme", async () => {
    // 25 users (the admin, the agent and 23 more) against a plan of 25: page 2 on scroll, the 26th refused.
    const crowded = await makeTenant(harness.context, { plan: { users: 25 } })
    for (let index = 1; index <= 23; index++) {
      await makeUser(harness.context.db, { companyId: crowded.company.id, name: `Pessoa ${String(index).padStart(2, '0')}` })
    }
    const { page, browserContext, problems } = await openPage(harness, { colorScheme: 'dark' })
    await signInThroughForm(page, crowded.admin)
    const secondPage = page.waitForRequest((request) => request.url().includes('/api/users') && request.url().includes('pageNumber=2'))
    await page.goto('/users')
    await row(page, 'Pessoa 01').waitFor()
    await page.locator('.data-table-sentinel').scrollIntoViewIfNeeded()
    await secondPage
    await waitForRows(page, 25)
    await page.evaluate(() => document.querySelectorAll('.admin-page, .data-table-frame').forEach((element) => element.scrollTo(0, 0)))
    await page.screenshot({ path: join(screenshots, 'users-dark.png') })

    await page.getByRole('button', { name: 'Add user' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add user' })
    await dialog.getByText('The company has no queues yet.').waitFor()
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Vinte e Seis')
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill('vinte.seis@example.com')
    await dialog.getByLabel('Password', { exact: true }).fill('Senha123')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.getByRole('alert').filter({ hasText: "Your plan's user limit has been reached." }).waitFor()
    await toast(page, "Your plan's user limit has been reached.")
    expect(await storedUser('vinte.seis@example.com')).toBeUndefined()
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    for (const [language, title, column, add, agent] of [
      ['pt', 'Usuários', 'Conexão padrão', 'Adicionar usuário', 'Atendente'],
      ['es', 'Usuarios', 'Conexión predeterminada', 'Agregar usuario', 'Agente'],
    ] as const) {
      await page.evaluate((code) => localStorage.setItem('language', code), language)
      await page.reload()
      await page.getByRole('heading', { name: title }).waitFor()
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor()
      await page.getByRole('button', { name: add }).waitFor()
      await row(page, 'Pessoa 01').getByRole('cell', { name: agent, exact: true }).waitFor()
    }
    // The plan limit (403) is the failed request on purpose.
    expect(unexpectedErrors(problems, [403])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 3)
})

/** Waits until the table shows this many users (the header row aside), up to 15 s. */
async function waitForRows(page: Page, count: number) {
  const body = page.locator('.data-table tbody tr:not([aria-hidden]):not(:has(.data-table-loading)):not(:has(.data-table-empty))')
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await Bun.sleep(50)) {
    if ((await body.count()) === count) return
  }
  expect(await body.count()).toBe(count)
}

/** Toasts cover the page's header: a screenshot is taken without them. */
async function closeToasts(page: Page) {
  const buttons = page.locator('.toast-close')
  while ((await buttons.count()) > 0) await buttons.first().click()
}
