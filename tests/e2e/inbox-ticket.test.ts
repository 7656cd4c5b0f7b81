// The open ticket in the browser (§2 Tickets, §4 ticket status, §5 contact and note, §6, §8): opened by
// URL, accepted, transferred, closed and reopened, kept live from the socket; the contact drawer's
// notes and edit form; an admin's delete; the access error for another queue's ticket.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { contacts, schedules, ticketNotes, tickets, ticketTags, userQueues } from '../../db/schema/index.ts'
import { makeCompany, makeConnection, makeContact, makeQueue, makeTag, makeTicket, makeUser, signIn } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, signInTo, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness()
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')
mkdirSync(screenshots, { recursive: true })

/** A company with an admin, two agents (A in queue "Vendas", B in "Vendas" and "Suporte"), a third queue nobody has, and a connection. */
async function makeInbox() {
  const db = harness.context.db
  const company = await makeCompany(db)
  const sales = await makeQueue(db, { companyId: company.id, name: 'Vendas', color: '#1d4ed8' })
  const support = await makeQueue(db, { companyId: company.id, name: 'Suporte', color: '#b42318' })
  const billing = await makeQueue(db, { companyId: company.id, name: 'Financeiro', color: '#7a4d00' })
  const connection = await makeConnection(db, { companyId: company.id, name: 'Loja', isDefault: true })
  const admin = await makeUser(db, { companyId: company.id, profile: 'admin', name: 'Alice Admin' })
  const agentA = await makeUser(db, { companyId: company.id, name: 'Ana Agente' })
  const agentB = await makeUser(db, { companyId: company.id, name: 'Bruno Agente' })
  await db.insert(userQueues).values([
    { userId: agentA.id, queueId: sales.id, companyId: company.id },
    { userId: agentB.id, queueId: sales.id, companyId: company.id },
    { userId: agentB.id, queueId: support.id, companyId: company.id },
  ])
  return { company, sales, support, billing, connection, admin, agentA, agentB }
}

async function ticketRow(id: number) {
  const [row] = await harness.context.db.select().from(tickets).where(eq(tickets.id, id))
  return row
}

/** Opens the ticket's address; its socket is registered, so changes made elsewhere then reach the page. */
async function openTicketByUrl(page: Page, uuid: string): Promise<void> {
  await withLiveSocket(page, () => page.goto(`/tickets/${uuid}`))
  await page.locator('.ticket-header').waitFor()
}

/** Signed in straight onto the ticket's page (the sign-in form is auth.test.ts's). */
async function signInToTicket(page: Page, user: { email: string; password: string }, uuid: string): Promise<void> {
  await signInTo(page, user, `/tickets/${uuid}`)
  await page.locator('.ticket-header').waitFor()
}

const actions = (page: Page) => page.getByRole('toolbar', { name: 'Ticket actions' })

async function waitForStatus(page: Page, status: 'open' | 'pending' | 'closed'): Promise<void> {
  await page.locator(`.ticket-panel[data-status="${status}"]`).waitFor()
}

async function choose(page: Page, select: string, option: string): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: new RegExp(`${select}$`) }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

describeInBrowser('the open ticket', () => {
  test('an agent opens a pending ticket by URL, accepts it and transfers it to another queue and agent', async () => {
    const inbox = await makeInbox()
    const contact = await makeContact(harness.context.db, { companyId: inbox.company.id, name: 'Carla Cliente', number: '5511987654321' })
    const ticket = await makeTicket(harness.context.db, { companyId: inbox.company.id, contactId: contact.id, queueId: inbox.sales.id, whatsappId: inbox.connection.id })

    const { page, browserContext, problems } = await openPage(harness)
    await signInToTicket(page, inbox.agentA, ticket.uuid)
    const header = page.locator('.ticket-header')
    await header.getByRole('heading', { name: 'Carla Cliente' }).waitFor()
    await header.getByText(`Ticket #${ticket.id}`).waitFor()
    await header.getByText('+55 (11) 98765-4321').waitFor()
    await header.getByText('Queue: Vendas').waitFor()
    await header.getByText('Connection: Loja').waitFor()
    // Pending: accept only; the input stays disabled until then (the chat's concern), the panel stays.
    expect(await actions(page).getByRole('button', { name: 'Resolve' }).count()).toBe(0)
    await actions(page).getByRole('button', { name: 'Accept' }).click()
    await waitForStatus(page, 'open')
    await header.getByText('User: Ana Agente').waitFor()
    expect(await ticketRow(ticket.id)).toMatchObject({ status: 'open', userId: inbox.agentA.id })

    await actions(page).getByRole('button', { name: 'Transfer ticket' }).click()
    const dialog = page.getByRole('dialog', { name: 'Transfer ticket' })
    await dialog.waitFor()
    // The ticket's own connection is chosen already (a connection is required).
    await dialog.getByRole('button', { name: /Loja/ }).waitFor()
    await choose(page, 'Queue', 'Suporte')
    await choose(page, 'User', 'Bruno Agente')
    await page.waitForTimeout(200)
    await page.screenshot({ path: join(screenshots, 'inbox-ticket-transfer.png') })
    await dialog.getByRole('button', { name: 'Transfer' }).click()
    await page.getByText('Ticket transferred.').waitFor()
    // The ticket is Bruno's now: Ana's panel closes.
    await page.waitForURL('**/tickets')
    expect(await ticketRow(ticket.id)).toMatchObject({ status: 'open', userId: inbox.agentB.id, queueId: inbox.support.id, whatsappId: inbox.connection.id })
    expect(unexpectedErrors(problems)).toEqual([])

    // Bruno sees it as his, in Suporte.
    const second = await openPage(harness)
    await signInToTicket(second.page, inbox.agentB, ticket.uuid)
    await second.page.locator('.ticket-header').getByText('Queue: Suporte').waitFor()
    await second.page.locator('.ticket-header').getByText('User: Bruno Agente').waitFor()
    expect(unexpectedErrors(second.problems)).toEqual([])
    await second.browserContext.close()
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('the agent resolves the ticket (back to the list), reopens it, and sees changes made elsewhere live', async () => {
    const inbox = await makeInbox()
    const ticket = await makeTicket(harness.context.db, { companyId: inbox.company.id, queueId: inbox.sales.id, userId: inbox.agentB.id, status: 'open', whatsappId: inbox.connection.id })
    const tag = await makeTag(harness.context.db, { companyId: inbox.company.id, name: 'Urgente', color: '#b42318' })
    const { page, browserContext, problems } = await openPage(harness)
    await signInToTicket(page, inbox.agentB, ticket.uuid)
    await waitForStatus(page, 'open')

    // An admin tags the ticket through the API: the header shows it without a reload.
    const adminSession = await signIn(harness.context, inbox.admin)
    const { error } = await harness.context.as(adminSession.token).api['ticket-tags']({ ticketId: ticket.id })({ tagId: tag.id }).put()
    expect(error).toBeNull()
    await page.locator('.ticket-header .ticket-chip-tag', { hasText: 'Urgente' }).waitFor()

    await actions(page).getByRole('button', { name: 'Resolve' }).click()
    await page.waitForURL('**/tickets')
    expect(await ticketRow(ticket.id)).toMatchObject({ status: 'closed' })

    await openTicketByUrl(page, ticket.uuid)
    await waitForStatus(page, 'closed')
    expect(await actions(page).getByRole('button', { name: 'Transfer ticket' }).count()).toBe(0)
    await actions(page).getByRole('button', { name: 'Reopen' }).click()
    await waitForStatus(page, 'open')
    expect(page.url()).toEndWith(`/tickets/${ticket.uuid}`)
    expect(await ticketRow(ticket.id)).toMatchObject({ status: 'open', userId: inbox.agentB.id })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)

  test('the contact drawer: a note added and deleted with their toasts, the contact renamed', async () => {
    const inbox = await makeInbox()
    const contact = await makeContact(harness.context.db, { companyId: inbox.company.id, name: 'Carla Cliente', number: '5511987654321', email: 'carla@example.com' })
    const ticket = await makeTicket(harness.context.db, { companyId: inbox.company.id, contactId: contact.id, queueId: inbox.sales.id, userId: inbox.agentB.id, status: 'open', whatsappId: inbox.connection.id })
    const { page, browserContext, problems } = await openPage(harness)
    await signInToTicket(page, inbox.agentB, ticket.uuid)
    await page.waitForTimeout(200)
    await page.screenshot({ path: join(screenshots, 'inbox-ticket.png') })

    await actions(page).getByRole('button', { name: 'Contact details' }).click()
    const drawer = page.getByRole('complementary', { name: 'Contact details' })
    await drawer.getByText('carla@example.com').waitFor()

    // §5: a note needs 2 characters.
    await drawer.getByLabel('New note').fill('x')
    await drawer.getByRole('button', { name: 'Add note' }).click()
    await drawer.getByText('Write at least 2 characters.').waitFor()
    await drawer.getByLabel('New note').fill('Ligar de volta amanhã às 10h')
    await drawer.getByRole('button', { name: 'Add note' }).click()
    await page.getByText('Note added successfully!').waitFor()
    await drawer.getByText('Ligar de volta amanhã às 10h').waitFor()
    await drawer.getByText(/Bruno Agente · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/).waitFor()
    await page.waitForTimeout(200)
    await page.screenshot({ path: join(screenshots, 'inbox-ticket-drawer.png') })
    // The same in the dark theme (the theme toggle sets this attribute).
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'))
    // Past the buttons' colour transition.
    await page.waitForTimeout(400)
    await page.screenshot({ path: join(screenshots, 'inbox-ticket-drawer-dark.png') })
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'))
    const [note] = await harness.context.db.select().from(ticketNotes).where(eq(ticketNotes.contactId, contact.id))
    expect(note).toMatchObject({ note: 'Ligar de volta amanhã às 10h', ticketId: ticket.id, userId: inbox.agentB.id })

    await drawer.getByRole('button', { name: /^Delete note by Bruno Agente/ }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete note' })
    await confirm.getByText('Do you really want to delete this record?').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Note deleted successfully!').waitFor()
    await drawer.getByText('No notes yet.').waitFor()
    expect(await harness.context.db.select().from(ticketNotes).where(eq(ticketNotes.contactId, contact.id))).toEqual([])

    await drawer.getByRole('button', { name: 'Edit contact' }).click()
    const form = drawer.getByRole('form', { name: 'Edit contact' })
    // §5: the stored 55 is stripped on edit and the number shown with the mask.
    expect(await form.getByLabel('Number').inputValue()).toBe('(11) 98765-4321')
    await form.getByLabel('Name').fill('C')
    await form.getByRole('button', { name: 'Save' }).click()
    await form.getByText('Enter a name, 2 to 50 characters.').waitFor()
    await form.getByLabel('Name').fill('Carla Souza')
    await form.getByRole('button', { name: 'Add field' }).click()
    await form.getByLabel('Field 1 name').fill('CPF')
    await form.getByLabel('Field 1 value').fill('123.456.789-00')
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Contact saved.').waitFor()
    await page.locator('.ticket-header').getByRole('heading', { name: 'Carla Souza' }).waitFor()
    await drawer.getByText('123.456.789-00').waitFor()
    const [saved] = await harness.context.db.select().from(contacts).where(eq(contacts.id, contact.id))
    expect(saved).toMatchObject({ name: 'Carla Souza', number: '5511987654321', email: 'carla@example.com' })

    // Escape closes the drawer, and focus returns to the button that opened it.
    await drawer.getByRole('button', { name: 'Edit contact' }).focus()
    await page.keyboard.press('Escape')
    await drawer.waitFor({ state: 'detached' })
    // The focus comes back once the drawer is gone (a frame later): waited for, then checked.
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Contact details')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Contact details')
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)

  test('the options menu schedules a message to the contact (one hour ahead by default, with an image) and edits the tags', async () => {
    const inbox = await makeInbox()
    const ticket = await makeTicket(harness.context.db, { companyId: inbox.company.id, queueId: inbox.sales.id, userId: inbox.agentB.id, status: 'open', whatsappId: inbox.connection.id })
    const { page, browserContext, problems } = await openPage(harness)
    await signInToTicket(page, inbox.agentB, ticket.uuid)
    await actions(page).getByRole('button', { name: 'Ticket options' }).click()
    await page.getByRole('menuitem', { name: 'Schedule message' }).click()
    // The schedules page's dialog, with the ticket's contact fixed.
    const dialog = page.getByRole('dialog', { name: 'New scheduled message' })
    // §5: at least 5 characters.
    await dialog.getByLabel('Message').fill('Oi')
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click()
    await dialog.getByText('Message too short').waitFor()
    await dialog.getByLabel('Message').fill('Seu pedido ficou pronto!')
    // A 1x1 PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')
    const chooser = page.waitForEvent('filechooser')
    await dialog.getByRole('button', { name: 'Attach image' }).click()
    await (await chooser).setFiles({ name: 'pedido.png', mimeType: 'image/png', buffer: png })
    const before = Date.now()
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click()
    await page.getByText('Message scheduled.').waitFor()
    const [row] = await harness.context.db.select().from(schedules).where(eq(schedules.contactId, ticket.contactId))
    expect(row).toMatchObject({ body: 'Seu pedido ficou pronto!', ticketId: ticket.id, userId: inbox.agentB.id, status: 'PENDENTE', mediaName: 'pedido.png' })
    // §9: one hour ahead by default (to the minute the form shows).
    expect(Math.abs(row!.sendAt.getTime() - (before + 3_600_000))).toBeLessThan(120_000)

    // The tags editor of the same menu: the ticket's tags replaced by the ones ticked.
    const tag = await makeTag(harness.context.db, { companyId: inbox.company.id, name: 'Entrega', color: '#1d4ed8' })
    await actions(page).getByRole('button', { name: 'Ticket options' }).click()
    await page.getByRole('menuitem', { name: 'Edit tags' }).click()
    const tagsDialog = page.getByRole('dialog', { name: 'Ticket tags' })
    // By keyboard: react-aria's checkbox input is visually hidden behind its drawn box.
    await tagsDialog.getByRole('checkbox', { name: 'Entrega' }).focus()
    await page.keyboard.press('Space')
    expect(await tagsDialog.getByRole('checkbox', { name: 'Entrega' }).isChecked()).toBe(true)
    await tagsDialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Tags saved.').waitFor()
    await page.locator('.ticket-header .ticket-chip-tag', { hasText: 'Entrega' }).waitFor()
    expect(await harness.context.db.select({ tagId: ticketTags.tagId }).from(ticketTags).where(eq(ticketTags.ticketId, ticket.id))).toEqual([{ tagId: tag.id }])
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)

  test('an admin deletes a ticket from the options menu; agents do not get the item', async () => {
    const inbox = await makeInbox()
    const ticket = await makeTicket(harness.context.db, { companyId: inbox.company.id, queueId: inbox.sales.id })
    const { page, browserContext, problems } = await openPage(harness)
    await signInToTicket(page, inbox.admin, ticket.uuid)
    await actions(page).getByRole('button', { name: 'Ticket options' }).click()
    await page.getByRole('menuitem', { name: 'Delete ticket' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete ticket' })
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Ticket deleted.').waitFor()
    await page.waitForURL('**/tickets')
    expect(await ticketRow(ticket.id)).toBeUndefined()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()

    const other = await makeTicket(harness.context.db, { companyId: inbox.company.id, queueId: inbox.sales.id })
    const agent = await openPage(harness)
    await signInToTicket(agent.page, inbox.agentA, other.uuid)
    await actions(agent.page).getByRole('button', { name: 'Ticket options' }).press('Enter')
    await agent.page.getByRole('menuitem', { name: 'Edit tags' }).waitFor()
    expect(await agent.page.getByRole('menuitem', { name: 'Delete ticket' }).count()).toBe(0)
    await agent.browserContext.close()
  }, E2E_TIMEOUT)

  test('narrow screen, in Portuguese: the drawer covers the chat instead of squeezing it', async () => {
    const inbox = await makeInbox()
    const contact = await makeContact(harness.context.db, { companyId: inbox.company.id, name: 'Carla Cliente', number: '5511987654321' })
    const ticket = await makeTicket(harness.context.db, { companyId: inbox.company.id, contactId: contact.id, queueId: inbox.sales.id })
    const { page, browserContext, problems } = await openPage(harness, { viewport: { width: 600, height: 800 } })
    await signInThroughForm(page, inbox.agentA)
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await openTicketByUrl(page, ticket.uuid)
    const toolbar = page.getByRole('toolbar', { name: 'Ações do ticket' })
    await toolbar.getByRole('button', { name: 'Aceitar' }).waitFor()
    const chatWidth = (await page.locator('.ticket-main').boundingBox())!.width
    await toolbar.getByRole('button', { name: 'Dados do contato' }).click()
    const drawer = page.getByRole('complementary', { name: 'Dados do contato' })
    await drawer.getByRole('heading', { name: 'Observações' }).waitFor()
    expect(await drawer.evaluate((element) => getComputedStyle(element).position)).toBe('absolute')
    expect((await page.locator('.ticket-main').boundingBox())!.width).toBe(chatWidth)
    await page.waitForTimeout(200)
    await page.screenshot({ path: join(screenshots, 'inbox-ticket-narrow-pt.png') })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)

  test("an agent opening another queue's ticket by URL gets 'Access not allowed' and goes back to /tickets", async () => {
    const inbox = await makeInbox()
    const ticket = await makeTicket(harness.context.db, { companyId: inbox.company.id, queueId: inbox.billing.id })
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, inbox.agentA, `/tickets/${ticket.uuid}`)
    await page.getByText('Access not allowed').waitFor()
    await page.waitForURL('**/tickets')
    expect(await page.locator('.ticket-header').count()).toBe(0)
    expect(await page.evaluate(() => location.pathname)).toBe('/tickets')
    // The refused request is the only error the browser reports.
    expect(unexpectedErrors(problems, [403])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)
})

