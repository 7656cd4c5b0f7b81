// Issue 5's end-to-end journey, as a newcomer would live it in the demo: a simulated customer writes
// in, the ticket appears live in the pending tab, the agent accepts it, answers with text, an image
// and a quoted reply (the simulator's outbox shows exactly those), writes a note in the contact
// drawer and logs out. In English on a wide light screen, in Portuguese in the dark theme and in
// Spanish on a phone-sized screen (the list and the ticket as two tabs), with the texts checked.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { ticketNotes, tickets, userQueues, whatsappQueues, whatsapps } from '../../db/schema/index.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { makeQueue, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { describeInBrowser, dismissToast, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness({ config: { whatsappSimulator: true } })
// Each journey's connection is up in a moment rather than the simulator's default 2.8 s (QR, then
// pairing); nothing here watches it connect. Receipts keep their default pace.
if (harness) harness.context.simulator.configure({ qrDelayMs: 5, connectDelayMs: 20 })

// A real 1x1 PNG.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

type Texts = {
  pendingTab: RegExp
  assignedTab: RegExp
  pendingList: string
  accept: (name: string) => string
  contactDetails: string
  newNote: string
  addNote: string
  noteAdded: string
  account: (name: string) => string
  logOut: string
  attendanceTab?: string
}

const english: Texts = {
  pendingTab: /^Pending 1$/,
  assignedTab: /^Assigned 1$/,
  pendingList: 'Pending tickets',
  accept: (name) => `Accept ${name}`,
  contactDetails: 'Contact details',
  newNote: 'New note',
  addNote: 'Add note',
  noteAdded: 'Note added successfully!',
  account: (name) => `Account: ${name}`,
  logOut: 'Log out',
}
const portuguese: Texts = {
  pendingTab: /^Aguardando 1$/,
  assignedTab: /^Atendendo 1$/,
  pendingList: 'Atendimentos aguardando',
  accept: (name) => `Aceitar ${name}`,
  contactDetails: 'Dados do contato',
  newNote: 'Nova observação',
  addNote: 'Adicionar observação',
  noteAdded: 'Observação adicionada com sucesso!',
  account: (name) => `Conta: ${name}`,
  logOut: 'Sair',
}
const spanish: Texts = {
  pendingTab: /^Pendientes 1$/,
  assignedTab: /^Asignados 1$/,
  pendingList: 'Tickets pendientes',
  accept: (name) => `Aceptar ${name}`,
  contactDetails: 'Datos del contacto',
  newNote: 'Nueva observación',
  addNote: 'Agregar observación',
  noteAdded: '¡Observación agregada con éxito!',
  account: (name) => `Cuenta: ${name}`,
  logOut: 'Cerrar sesión',
  attendanceTab: 'Atención',
}

/** A company whose agent serves the queue of a connected simulator connection; the customer is driven by an admin over the API. */
async function makeDesk() {
  const tenant = await makeTenant(harness.context)
  const companyId = tenant.company.id
  const queue = await makeQueue(harness.context.db, { companyId, name: 'Atendimento' })
  await harness.context.db.insert(userQueues).values({ companyId, userId: tenant.agent.id, queueId: queue.id })
  // A second admin drives the customer: the browser's sign-in would end the first admin's API session.
  const operator = await makeUser(harness.context.db, { companyId, profile: 'admin' })
  const driver = harness.context.as((await signIn(harness.context, operator)).token)
  const created = await driver.api.whatsapp.post({ name: 'Loja', provider: 'simulator' })
  const whatsappId = created.data!.id
  // One queue on the connection: a new conversation goes straight into it (§3, no menu).
  await harness.context.db.insert(whatsappQueues).values({ companyId, whatsappId, queueId: queue.id })
  await waitFor(async () => (await harness.context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
  const simulator = driver.api.simulator({ whatsappId })
  const outbox = async () => (await simulator.outbox.get({ query: {} })).data!.messages
  return { tenant, simulator, outbox }
}

async function journey(page: Page, texts: Texts, options: { language: string; narrow?: boolean }) {
  const desk = await makeDesk()
  const agent = desk.tenant.agent
  // Signed in through the English form, then the page is shown in the journey's language.
  await signInThroughForm(page, agent)
  await page.evaluate((language) => localStorage.setItem('language', language), options.language)
  // The ticket must then arrive live: the reloaded page's socket is registered before the customer writes.
  await withLiveSocket(page, () => page.reload())
  await page.locator('.topbar-greeting').waitFor()
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(options.language)

  // The customer writes: the ticket arrives live in the pending tab, with its count.
  const customer = `55119${String(Date.now()).slice(-8)}`
  const first = await desk.simulator.inbound.post({ from: customer, name: 'Marta Rocha', body: 'Boa tarde, meu pedido não chegou' })
  expect(first.status).toBe(200)
  const pendingTab = page.getByRole('tab', { name: texts.pendingTab })
  await pendingTab.click()
  const row = page.getByRole('grid', { name: texts.pendingList }).getByRole('row').filter({ hasText: 'Marta Rocha' })
  await row.getByText('Boa tarde, meu pedido não chegou').waitFor()

  // Accepted: it moves to the agent's tab and opens.
  await row.getByRole('button', { name: texts.accept('Marta Rocha') }).click()
  await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/)
  if (texts.attendanceTab) {
    // The narrow screen turns to the ticket's tab as the opened ticket renders: waited for, then checked.
    await page.locator('[role="tab"][aria-selected="true"]', { hasText: texts.attendanceTab }).waitFor()
    expect(await page.getByRole('tab', { name: texts.attendanceTab }).getAttribute('aria-selected')).toBe('true')
  } else await page.getByRole('tab', { name: texts.assignedTab }).waitFor()
  const panel = page.locator('.ticket-panel')
  await panel.locator('.chat-bubble', { hasText: 'Boa tarde, meu pedido não chegou' }).waitFor()
  const [ticket] = await harness.context.db.select().from(tickets).where(eq(tickets.companyId, desk.tenant.company.id))
  expect(ticket).toMatchObject({ status: 'open', userId: agent.id })

  // Text, then an image with a caption, then a quoted reply: the outbox holds exactly these.
  const input = panel.locator('.chat-textarea')
  await input.fill('Vou verificar agora mesmo.')
  await input.press('Enter')
  await panel.locator('.chat-bubble', { hasText: 'Vou verificar agora mesmo.' }).waitFor()
  await panel.locator('.chat-file-input').setInputFiles({ name: 'rastreio.png', mimeType: 'image/png', buffer: png })
  await input.fill('Comprovante de envio')
  await panel.locator('.chat-send').click()
  await panel.locator('.chat-bubble img.chat-image').last().waitFor()
  const question = panel.locator('.chat-bubble-theirs', { hasText: 'Boa tarde, meu pedido não chegou' })
  await question.hover()
  await question.locator('.chat-options').click()
  await page.locator('.chat-menu-reply').click()
  await input.fill('Chega amanhã!')
  await input.press('Enter')
  await panel.locator('.chat-bubble', { hasText: 'Chega amanhã!' }).locator('.chat-quote').waitFor()
  await waitFor(async () => (await desk.outbox()).length >= 3)
  const sent = await desk.outbox()
  const signature = `*${agent.name}*:\n`
  expect(sent).toHaveLength(3)
  expect(sent[0]).toMatchObject({ to: customer, body: `${signature}Vou verificar agora mesmo.` })
  expect(sent[1]!.media).toMatchObject({ kind: 'image', mimetype: 'image/png' })
  expect(sent[1]!.media!.caption ?? sent[1]!.body).toBe(`${signature}Comprovante de envio`)
  expect(sent[2]).toMatchObject({ body: `${signature}Chega amanhã!`, quotedId: first.data!.id })

  // A note in the contact drawer.
  await panel.getByRole('button', { name: texts.contactDetails }).click()
  const drawer = page.getByRole('complementary', { name: texts.contactDetails })
  await drawer.getByLabel(texts.newNote).fill('Cliente pediu retorno por telefone')
  await drawer.getByRole('button', { name: texts.addNote }).click()
  // Closed once read: the toast covers the account menu, next, for 3 s otherwise.
  await dismissToast(page, texts.noteAdded)
  const notes = await harness.context.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, ticket!.id))
  expect(notes.map((note) => note.note)).toEqual(['Cliente pediu retorno por telefone'])
  if (options.narrow) await page.keyboard.press('Escape')

  // Logout, from the account menu.
  await page.getByRole('button', { name: texts.account(agent.name) }).click()
  await page.getByRole('menuitem', { name: texts.logOut }).click()
  await page.waitForURL('**/login')
}

describeInBrowser('the inbox journey', () => {
  test('in English on a wide screen: live pending ticket, accept, text, image, quoted reply, note, logout', async () => {
    const { page, browserContext, problems } = await openPage(harness)
    await journey(page, english, { language: 'en' })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('in Portuguese, dark theme', async () => {
    const { page, browserContext, problems } = await openPage(harness, { colorScheme: 'dark' })
    await journey(page, portuguese, { language: 'pt' })
    expect(await page.evaluate(() => document.documentElement.dataset.theme ?? getComputedStyle(document.documentElement).colorScheme)).toContain('dark')
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('in Spanish on a phone-sized screen: the list and the ticket are two tabs', async () => {
    const { page, browserContext, problems } = await openPage(harness, { viewport: { width: 420, height: 860 } })
    await journey(page, spanish, { language: 'es', narrow: true })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
