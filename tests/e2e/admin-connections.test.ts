// /connections in the browser (§2, §4, §6): an admin adds a simulator connection and reads its QR code
// (the modal closes by itself on CONNECTED, the row turns CONNECTED live), the greeting rule of the
// form, disconnect and reconnect, the read-only table of a non-admin, pt/es spot checks, screenshots.
import { expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { messages, whatsappQueues, whatsapps } from '../../db/schema/index.ts'
import { makeCompany, makeConnection, makePlan, makeQueue, makeUser } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, signInTo, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

// This file's server runs the WhatsApp simulator.
const harness = await startWebHarness({ config: { whatsappSimulator: true } })

const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

async function makeAdminCompany(name: string) {
  const plan = await makePlan(harness.context.db)
  const company = await makeCompany(harness.context.db, { name, planId: plan.id })
  const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin', name: 'Ana Lima' })
  return { company, admin }
}

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) })
}

describeInBrowser('connections page', () => {
  test('an admin adds a simulator connection: the QR modal shows the code and closes on CONNECTED', async () => {
    // Time to look at (and photograph) the QR code before the simulated phone "reads" it, with room
    // for a slow page on a loaded machine: the modal has to be seen before it closes by itself.
    harness.context.simulator.configure({ qrDelayMs: 200, connectDelayMs: 8000 })
    const { company, admin } = await makeAdminCompany('Padaria Pão Quente')
    await makeConnection(harness.context.db, { companyId: company.id, name: 'Balcão', isDefault: true })
    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)
    // The QR code and the connection's progress reach the page over its socket only.
    await withLiveSocket(page, () => page.goto('/connections'))
    await page.getByRole('heading', { name: 'Connections' }).waitFor()
    await row(page, 'Balcão').getByText('Disconnected').waitFor()

    await page.getByRole('button', { name: 'Add WhatsApp' }).click()
    const form = page.getByRole('dialog', { name: 'Add WhatsApp connection' })
    await form.getByRole('textbox', { name: 'Name' }).fill('Vendas')
    await form.getByRole('button', { name: /Provider/ }).click()
    await page.getByRole('option', { name: 'Simulator (test and demo)' }).click()
    // §9 defaults on the chatbot tab.
    await form.getByRole('tab', { name: 'Chatbot and expiry' }).click()
    expect(await form.getByRole('textbox', { name: 'Chatbot repetitions' }).inputValue()).toBe('3')
    expect(await form.getByRole('textbox', { name: 'Close inactive tickets after (minutes)' }).inputValue()).toBe('0')
    // The create request's answer (the row as read right after the session started) reaches the page
    // after the QR code's frames, as on a loaded machine: the older row must not undo the newer code.
    await page.route('**/api/whatsapp', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback()
      const response = await route.fetch()
      await new Promise((resolve) => setTimeout(resolve, 1000))
      await route.fulfill({ response })
    })
    await form.getByRole('button', { name: 'Add', exact: true }).click()

    const qr = page.getByRole('dialog', { name: 'Read the QR code' })
    await qr.waitFor()
    await qr
      .getByRole('img', { name: 'QR code of Vendas' })
      .waitFor()
      .catch(async (error: Error) => {
        // What the modal showed instead (waiting, stopped, or closed) says which path lost the code.
        const shown = (await qr.isVisible()) ? `${await qr.locator('.connection-qr-frame').getAttribute('data-status')}: ${await qr.innerText()}` : 'the modal had closed'
        throw new Error(`${error.message}\nThe QR modal showed ${shown}`)
      })
    expect(await qr.locator('svg path').count()).toBeGreaterThan(0)
    await row(page, 'Vendas').getByRole('button', { name: 'Show the QR code of Vendas' }).waitFor({ state: 'attached' })
    mkdirSync(screenshots, { recursive: true })
    await page.screenshot({ path: join(screenshots, 'connections-qr.png') })

    // The simulated phone reads it: the modal closes by itself and the row says so, without a reload.
    await qr.waitFor({ state: 'detached', timeout: 30_000 })
    await row(page, 'Vendas').getByText('Connected', { exact: true }).waitFor()
    await page.getByText('Vendas is connected.').waitFor()
    expect(await row(page, 'Vendas').getByText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/).count()).toBe(1)
    // The first connection stays the default (one star).
    expect(await row(page, 'Balcão').getByRole('img', { name: 'Default connection' }).count()).toBe(1)
    expect(await row(page, 'Vendas').getByRole('img', { name: 'Default connection' }).count()).toBe(0)

    // The demo's customer: written from this page, it arrives as a real customer's message would.
    await row(page, 'Vendas').getByRole('button', { name: 'Write as a customer on Vendas' }).click()
    const customer = page.getByRole('dialog', { name: 'Write as a customer on Vendas' })
    await customer.getByRole('button', { name: 'Send as the customer' }).click()
    await customer.getByText("Write the customer's message.").waitFor()
    await customer.getByRole('textbox', { name: 'Message' }).fill('Olá, vocês abrem no sábado?')
    await customer.getByRole('button', { name: 'Send as the customer' }).click()
    await page.getByText('Sent as the customer: the ticket is in the inbox.').waitFor()
    await waitFor(async () => (await harness.context.db.select().from(messages).where(eq(messages.body, 'Olá, vocês abrem no sábado?'))).length === 1)
    expect(await customer.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('')
    await customer.getByRole('button', { name: 'Close' }).click()
    // Not offered on a real (Baileys) connection.
    expect(await row(page, 'Balcão').getByRole('button', { name: 'Write as a customer on Balcão' }).count()).toBe(0)

    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.screenshot({ path: join(screenshots, 'connections.png') })
    // The same table in the dark theme (chips and star keep their contrast).
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'dark'))
    await page.reload()
    await row(page, 'Vendas').getByText('Connected', { exact: true }).waitFor()
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: join(screenshots, 'connections-dark.png') })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('two queues and no greeting: the greeting is required, on the messages tab', async () => {
    const { company, admin } = await makeAdminCompany('Oficina Rápida')
    const connection = await makeConnection(harness.context.db, { companyId: company.id, name: 'Oficina', isDefault: true })
    await makeQueue(harness.context.db, { companyId: company.id, name: 'Orçamentos', color: '#1d4ed8' })
    await makeQueue(harness.context.db, { companyId: company.id, name: 'Peças', color: '#b42318' })
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, admin, '/connections')
    await row(page, 'Oficina').getByRole('button', { name: 'Edit Oficina' }).click()
    const form = page.getByRole('dialog', { name: 'Edit WhatsApp connection' })
    // react-aria keeps the input visually hidden: the user clicks the label.
    await form.locator('label.queue-choice', { hasText: 'Orçamentos' }).click()
    await form.locator('label.queue-choice', { hasText: 'Peças' }).click()
    expect(await form.getByRole('checkbox', { name: 'Peças' }).isChecked()).toBe(true)
    await form.getByRole('button', { name: 'Save' }).click()
    // The check happens before sending: the messages tab opens with the error on the greeting.
    const greetingError = 'A greeting message is required when there is more than one queue.'
    await form.getByText(greetingError).waitFor()
    expect(await form.getByRole('tab', { name: 'Messages' }).getAttribute('aria-selected')).toBe('true')
    expect(await form.getByRole('textbox', { name: 'Greeting message' }).getAttribute('aria-invalid')).toBe('true')

    // With a greeting it saves, and the server has the queues.
    await form.getByRole('textbox', { name: 'Greeting message' }).fill('Olá! Escolha um setor:')
    await form.getByRole('button', { name: 'Save' }).click()
    await form.waitFor({ state: 'detached' })
    await page.getByText('Connection saved.').waitFor()
    const saved = await harness.context.db.select().from(whatsappQueues).where(eq(whatsappQueues.whatsappId, connection.id))
    expect(saved.length).toBe(2)

    // The default cannot simply be switched off while another connection exists (ERR_NO_OTHER_WHATSAPP from the server).
    await makeConnection(harness.context.db, { companyId: company.id, name: 'Reserva' })
    await row(page, 'Oficina').getByRole('button', { name: 'Edit Oficina' }).click()
    await form.locator('label.connection-switch').click()
    expect(await form.getByRole('switch', { name: 'Default connection' }).isChecked()).toBe(false)
    await form.getByRole('button', { name: 'Save' }).click()
    await form.getByText('At least one default WhatsApp connection is required.').first().waitFor()
    await form.getByRole('button', { name: 'Cancel' }).click()

    // The API token: masked, shown on demand.
    await row(page, 'Oficina').getByRole('button', { name: 'Edit Oficina' }).click()
    await form.getByRole('tab', { name: 'API token' }).click()
    const tokenValue = form.getByTestId('connection-token')
    expect(await tokenValue.innerText()).toMatch(/^•+$/)
    await form.getByRole('button', { name: 'Show token' }).click()
    expect(await tokenValue.innerText()).toBe(connection.token)
    await form.getByRole('button', { name: 'Generate new token' }).click()
    await page.getByRole('dialog', { name: 'Generate a new token?' }).getByRole('button', { name: 'Generate' }).click()
    await page.getByText('New token generated. The previous one no longer works.').waitFor()
    const renewed = await tokenValue.innerText()
    expect(renewed).not.toBe(connection.token)
    expect(renewed.length).toBeGreaterThan(20)
    expect(unexpectedErrors(problems, [400])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('disconnect, then try again: a new QR code, then CONNECTED', async () => {
    // The QR code must be seen before the simulated phone reads it: room for a slow page.
    harness.context.simulator.configure({ qrDelayMs: 200, connectDelayMs: 5000 })
    const { company, admin } = await makeAdminCompany('Floricultura Ipê')
    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)
    const flores = await makeConnection(harness.context.db, { companyId: company.id, name: 'Flores', isDefault: true })
    await harness.context.db.update(whatsapps).set({ provider: 'simulator' }).where(eq(whatsapps.id, flores.id))
    await withLiveSocket(page, () => page.goto('/connections'))
    await row(page, 'Flores').getByText('Disconnected').waitFor()
    // Started by the server (as at boot): the page learns of each step from the realtime channels alone.
    await harness.context.app.decorator.connections.start({ companyId: company.id, whatsappId: flores.id })
    await row(page, 'Flores').getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 })

    await row(page, 'Flores').getByRole('button', { name: 'Disconnect Flores' }).click()
    await page.getByRole('dialog', { name: 'Disconnect?' }).getByRole('button', { name: 'Disconnect' }).click()
    await row(page, 'Flores').getByText('Disconnected').waitFor()

    await row(page, 'Flores').getByRole('button', { name: 'Try again to connect Flores' }).click()
    const qr = page.getByRole('dialog', { name: 'Read the QR code' })
    await qr.getByRole('img', { name: 'QR code of Flores' }).waitFor()
    await qr.waitFor({ state: 'detached', timeout: 30_000 })
    await row(page, 'Flores').getByText('Connected', { exact: true }).waitFor()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test("the side menu's '!' badge: shown for a disconnected connection, not brought back by a check read before it connected", async () => {
    harness.context.simulator.configure({ qrDelayMs: 5, connectDelayMs: 20 })
    const { company, admin } = await makeAdminCompany('Mercearia Boa Vista')
    const loja = await makeConnection(harness.context.db, { companyId: company.id, name: 'Loja', isDefault: true })
    await harness.context.db.update(whatsapps).set({ provider: 'simulator' }).where(eq(whatsapps.id, loja.id))
    const { page, browserContext, problems } = await openPage(harness)
    const badge = page.getByRole('img', { name: 'A connection needs attention' })
    // The badge's check (2 s after the page loads; the inbox asks for its connections without
    // session=0) is read while Loja is disconnected, and its answer held until Loja has connected and
    // that frame has reached the page: a loaded machine's order.
    let checkRead!: () => void
    const read = new Promise<void>((resolve) => (checkRead = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/api/whatsapp?*', async (route) => {
      if (route.request().method() !== 'GET' || !route.request().url().includes('session=0')) return route.fallback()
      const response = await route.fetch()
      checkRead()
      await released
      await route.fulfill({ response })
    })
    const connectedFrame = new Promise<void>((resolve) => {
      page.on('websocket', (socket) => {
        socket.on('framereceived', (frame) => {
          const text = String(frame.payload)
          if (text.includes('-whatsapp"') && text.includes('"CONNECTED"')) resolve()
        })
      })
    })
    const answered = page.waitForResponse((response) => response.url().includes('/api/whatsapp?') && response.url().includes('session=0'))
    await signInTo(page, admin, '/tickets')
    await read
    await harness.context.app.decorator.connections.start({ companyId: company.id, whatsappId: loja.id })
    await connectedFrame
    release()
    await answered
    // The answer is in (React applies it on the next frame): the badge stays away.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    expect(await badge.count()).toBe(0)
    await page.unroute('**/api/whatsapp?*')

    // Disconnected: the badge comes live, and goes once connected again.
    await harness.context.app.decorator.connections.stop({ companyId: company.id, whatsappId: loja.id })
    await badge.waitFor()
    await harness.context.app.decorator.connections.start({ companyId: company.id, whatsappId: loja.id })
    await badge.waitFor({ state: 'detached' })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('a non-admin sees the table without add, session, edit or delete buttons; pt and es', async () => {
    const { company } = await makeAdminCompany('Livraria Sebo')
    await makeConnection(harness.context.db, { companyId: company.id, name: 'Loja', isDefault: true })
    const agent = await makeUser(harness.context.db, { companyId: company.id, profile: 'user' })
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, agent, '/connections')
    await row(page, 'Loja').getByText('Disconnected').waitFor()
    expect(await page.getByRole('button', { name: 'Add WhatsApp' }).count()).toBe(0)
    expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0)
    expect(await row(page, 'Loja').getByRole('button').count()).toBe(0)
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['Name', 'Status', 'Session', 'Last update', 'Default'])

    for (const [language, title, lastUpdate, status] of [
      ['pt', 'Conexões', 'Última atualização', 'Desconectado'],
      ['es', 'Conexiones', 'Última actualización', 'Desconectado'],
    ] as const) {
      await page.evaluate((code) => localStorage.setItem('language', code), language)
      await page.reload()
      await page.getByRole('heading', { name: title }).waitFor()
      await page.getByRole('columnheader', { name: lastUpdate }).waitFor()
      await row(page, 'Loja').getByText(status).waitFor()
    }
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
