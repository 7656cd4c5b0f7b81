// /queues in the browser (§2 "Queues", §3, §5, §8, §9): an admin creates two queues and an option tree
// (a root option with a child, added, reordered from the keyboard, edited, deleted with its subtree),
// meets the colour conflict, sees the attendance-time tab only while scheduleType is 'queue' (with
// the §9 week for a new queue), edits and deletes queues live; then a simulated customer walks the
// menu those screens built. pt/es spot checks, the admin gate, screenshots.
import { expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Locator, Page } from 'playwright-core'
import { queueOptions, queues, whatsapps } from '../../db/schema/index.ts'
import { makeTenant, makeUser } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInTo, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

// This file's server runs the WhatsApp simulator (the customer walks the menu).
const harness = await startWebHarness({ config: { whatsappSimulator: true } })

const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

type Tenant = Awaited<ReturnType<typeof makeTenant>>
// The tests below build on each other: one company, its queues, then the customer's walk.
let tenant: Tenant
let admin: Awaited<ReturnType<typeof makeUser>>

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) })
}

/** The latest toast with this text (several may be on screen at once). */
async function toast(page: Page, text: string) {
  await page.getByText(text, { exact: true }).last().waitFor()
}

/** react-aria keeps the radio input visually hidden: the user clicks its swatch. */
async function pickColour(dialog: Locator, name: string) {
  await dialog.getByRole('radio', { name, exact: true }).locator('xpath=ancestor::label[1]').click()
  expect(await dialog.getByRole('radio', { name, exact: true }).isChecked()).toBe(true)
}

async function addOption(page: Page, dialog: Locator, input: { parent?: string; title: string; message: string }) {
  await dialog.getByRole('button', { name: input.parent ? `Add a sub-option to ${input.parent}` : 'Add option', exact: true }).click()
  const form = dialog.getByRole('form', { name: input.parent ? `New sub-option of ${input.parent}` : 'New option' })
  await form.getByRole('textbox', { name: 'Option title' }).fill(input.title)
  await form.getByRole('textbox', { name: 'Option message' }).fill(input.message)
  await form.getByRole('button', { name: 'Save option' }).click()
  await form.waitFor({ state: 'detached' })
  await toast(page, 'Option added.')
}

/** The option titles as the editor lists them, depth first. */
const optionTitles = (dialog: Locator) => dialog.locator('.queue-option-title').allInnerTexts()

/** A screenshot of the screen itself: the toasts of the steps before it are dismissed, the focus ring dropped. */
async function screenshot(page: Page, file: string) {
  const closers = page.locator('.toast-close')
  while ((await closers.count()) > 0) await closers.first().click()
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await page.screenshot({ path: join(screenshots, file) })
}

async function setScheduleType(value: 'queue' | 'disabled') {
  const answer = await tenant.asAdmin.api.settings({ key: 'scheduleType' }).put({ value })
  expect(answer.status).toBe(200)
}

describeInBrowser('queues page', () => {
  test('two queues with an option tree: palette, colour conflict, §5 check, reorder by keyboard, edit, delete', async () => {
    tenant = await makeTenant(harness.context, { plan: { queues: 10 } })
    admin = await makeUser(harness.context.db, { companyId: tenant.company.id, profile: 'admin', name: 'Ana Lima' })
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, admin, '/queues')
    await page.getByRole('heading', { name: 'Queues & chatbot' }).waitFor()
    await page.getByText('No queues yet.').waitFor()
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['ID', 'Name', 'Colour', 'Order', 'Greeting message', 'Actions'])

    // Vendas: the first free palette colour (blue) is preselected; scheduleType is off, so no hours tab.
    await page.getByRole('button', { name: 'Add queue' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add queue' })
    await dialog.waitFor()
    expect(await dialog.getByRole('tab').allInnerTexts()).toEqual(['Queue data', 'Chatbot options'])
    expect(await dialog.getByRole('radio', { name: 'Blue', exact: true }).isChecked()).toBe(true)
    expect(await dialog.getByRole('radio').count()).toBe(12)
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Vendas')
    await dialog.getByRole('textbox', { name: 'Queue order' }).fill('1')
    await dialog.getByRole('textbox', { name: 'Greeting message' }).fill('Vendas: já vamos te atender.')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await toast(page, 'Queue saved.')
    await row(page, 'Vendas').getByRole('cell', { name: 'Blue' }).waitFor()

    // Suporte: §5 is checked before sending, then blue (marked as used by Vendas) is refused by the server.
    await page.getByRole('button', { name: 'Add queue' }).click()
    await dialog.waitFor()
    expect(await dialog.getByRole('radio', { name: 'Orange', exact: true }).isChecked()).toBe(true)
    await dialog.getByRole('textbox', { name: 'Name' }).fill('S')
    await dialog.getByRole('textbox', { name: 'Queue order' }).fill('two')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.getByText('Enter a name of 2 to 50 characters.').waitFor()
    await dialog.getByText('Enter a whole number from 0 to 100000, or leave it empty.').waitFor()
    expect(await dialog.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBe('true')
    expect((await harness.context.db.select().from(queues).where(eq(queues.companyId, tenant.company.id))).length).toBe(1)

    await dialog.getByRole('textbox', { name: 'Name' }).fill('Suporte')
    await dialog.getByRole('textbox', { name: 'Queue order' }).fill('2')
    await dialog.getByRole('textbox', { name: 'Greeting message' }).fill('Suporte aqui, {{firstName}}.')
    await pickColour(dialog, 'Blue, used by Vendas')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    const conflict = 'This colour is already used by another queue. Pick another one.'
    await dialog.locator('.field-error', { hasText: conflict }).waitFor()
    await toast(page, conflict)
    await pickColour(dialog, 'Green')

    // Options need a saved queue: "Save and add options" saves it and goes on as an edit.
    await dialog.getByRole('tab', { name: 'Chatbot options' }).click()
    await dialog.getByRole('button', { name: 'Save and add options' }).click()
    const editing = page.getByRole('dialog', { name: 'Edit queue' })
    await editing.getByText('No options yet: the customer goes straight to the queue.').waitFor()
    await row(page, 'Suporte').getByRole('cell', { name: 'Green' }).waitFor()

    // A title is required (checked before sending).
    await editing.getByRole('button', { name: 'Add option', exact: true }).click()
    await editing.getByRole('form', { name: 'New option' }).getByRole('button', { name: 'Save option' }).click()
    await editing.getByText('Enter a title of 1 to 100 characters.').waitFor()
    await editing.getByRole('form', { name: 'New option' }).getByRole('button', { name: 'Cancel' }).click()

    await addOption(page, editing, { title: 'Financeiro', message: 'Financeiro: escolha' })
    await addOption(page, editing, { parent: 'Financeiro', title: 'Boleto', message: 'Segue o boleto' })
    await addOption(page, editing, { title: 'Técnico', message: 'Um técnico vai te atender.' })
    expect(await optionTitles(editing)).toEqual(['Financeiro', 'Boleto', 'Técnico'])

    // Reorder from the keyboard: the focus stays on the moved option's buttons.
    await editing.getByRole('button', { name: 'Move Técnico up' }).focus()
    await page.keyboard.press('Enter')
    await toast(page, 'Option moved.')
    await waitFor(async () => (await optionTitles(editing)).join() === 'Técnico,Financeiro,Boleto')
    // At the top its "up" is disabled: the focus went to "down".
    await waitFor(async () => (await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) === 'Move Técnico down')
    await page.keyboard.press('Enter')
    await waitFor(async () => (await optionTitles(editing)).join() === 'Financeiro,Boleto,Técnico')
    // A move is one request per option whose number changes, the list following each: the numbers
    // settle once the last one is answered (CI once read them between the two).
    await waitFor(async () => (await editing.locator('.queue-option-number > [aria-hidden]').allInnerTexts()).join() === '1,1,2')

    // Edit a child in place.
    await editing.getByRole('button', { name: 'Edit Boleto' }).click()
    const editForm = editing.getByRole('form', { name: 'Edit Boleto' })
    await editForm.getByRole('textbox', { name: 'Option message' }).fill('Segue o boleto.')
    await editForm.getByRole('button', { name: 'Save option' }).click()
    await toast(page, 'Option saved.')
    await editing.getByText('Segue o boleto.', { exact: true }).waitFor()

    // Delete with its subtree, after a confirmation that says so.
    await addOption(page, editing, { title: 'Outros', message: 'Outros assuntos' })
    await addOption(page, editing, { parent: 'Outros', title: 'Reclamação', message: 'Conte o que houve' })
    await editing.getByRole('button', { name: 'Delete Outros' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete option' })
    await confirm.getByText('Option: Outros. Its 1 sub-options are deleted with it.').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await toast(page, 'Option deleted.')
    await waitFor(async () => (await optionTitles(editing)).join() === 'Financeiro,Boleto,Técnico')
    const stored = await harness.context.db.select().from(queueOptions).where(eq(queueOptions.companyId, tenant.company.id))
    expect(stored.map((option) => option.title).sort()).toEqual(['Boleto', 'Financeiro', 'Técnico'])

    mkdirSync(screenshots, { recursive: true })
    await screenshot(page, 'queues-dialog.png')
    // The same dialog in the dark theme: swatches, tree lines and buttons keep their contrast.
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'dark'))
    await page.reload()
    await row(page, 'Suporte').getByRole('button', { name: 'Edit Suporte' }).click()
    await editing.getByRole('tab', { name: 'Chatbot options' }).click()
    await editing.getByText('Segue o boleto.', { exact: true }).waitFor()
    await screenshot(page, 'queues-dialog-dark.png')
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'light'))
    // The changes below are made elsewhere: the reloaded page's socket must be registered first.
    await withLiveSocket(page, () => page.reload())
    await row(page, 'Suporte').waitFor()
    await editing.waitFor({ state: 'detached' })

    // Live: a queue created elsewhere appears; the admin edits one and deletes that one.
    const created = await tenant.asAdmin.api.queue.post({ name: 'Temporária', color: '#6d28d9' })
    expect(created.status).toBe(200)
    await row(page, 'Temporária').getByRole('cell', { name: 'Violet' }).waitFor()
    await row(page, 'Vendas').getByRole('button', { name: 'Edit Vendas' }).click()
    const vendas = page.getByRole('dialog', { name: 'Edit queue' })
    expect(await vendas.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Vendas')
    await vendas.getByRole('textbox', { name: 'Greeting message' }).fill('Vendas: já vamos te atender!')
    await vendas.getByRole('button', { name: 'Save', exact: true }).click()
    await vendas.waitFor({ state: 'detached' })
    await row(page, 'Vendas').getByRole('cell', { name: 'Vendas: já vamos te atender!' }).waitFor()

    await row(page, 'Temporária').getByRole('button', { name: 'Delete Temporária' }).click()
    const deleteQueue = page.getByRole('dialog', { name: 'Delete queue' })
    await deleteQueue.getByText('Do you really want to delete this record?').waitFor()
    await deleteQueue.getByRole('button', { name: 'Delete' }).click()
    await toast(page, 'Queue deleted.')
    await row(page, 'Temporária').waitFor({ state: 'detached' })
    // Deleted elsewhere: the row goes too.
    const other = await tenant.asAdmin.api.queue.post({ name: 'Passageira', color: '#0e7490' })
    await row(page, 'Passageira').waitFor()
    await tenant.asAdmin.api.queue({ id: other.data!.id }).delete()
    await row(page, 'Passageira').waitFor({ state: 'detached' })
    expect(await page.getByRole('row').count()).toBe(3)

    await screenshot(page, 'queues.png')
    // The 409 of the colour conflict is the one failed request on purpose.
    expect(unexpectedErrors(problems, [409])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 4)

  test("the attendance-time tab shows only with scheduleType 'queue': the §9 week, HH:MM checks, saved", async () => {
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, admin, '/queues')
    await row(page, 'Suporte').getByRole('button', { name: 'Edit Suporte' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit queue' })
    await dialog.getByRole('tab', { name: 'Chatbot options' }).waitFor()
    expect(await dialog.getByRole('tab', { name: 'Attendance time' }).count()).toBe(0)
    await dialog.getByRole('button', { name: 'Close' }).click()

    await setScheduleType('queue')
    // A new queue starts from the §9 week.
    await page.getByRole('button', { name: 'Add queue' }).click()
    const adding = page.getByRole('dialog', { name: 'Add queue' })
    await adding.getByRole('tab', { name: 'Attendance time' }).click()
    const hours = async (day: string) => [
      await adding.getByRole('textbox', { name: `${day} opens` }).inputValue(),
      await adding.getByRole('textbox', { name: `${day} closes` }).inputValue(),
    ]
    expect(await hours('Monday')).toEqual(['08:00', '18:00'])
    expect(await hours('Friday')).toEqual(['08:00', '18:00'])
    expect(await hours('Saturday')).toEqual(['08:00', '12:00'])
    expect(await hours('Sunday')).toEqual(['00:00', '00:00'])
    await adding.getByRole('button', { name: 'Close' }).click()

    // Editing Suporte: a bad time and an end before the start are caught before sending, on their tab.
    await row(page, 'Suporte').getByRole('button', { name: 'Edit Suporte' }).click()
    await dialog.getByRole('tab', { name: 'Attendance time' }).click()
    await dialog.getByRole('textbox', { name: 'Monday opens' }).fill('8h')
    await dialog.getByRole('textbox', { name: 'Tuesday closes' }).fill('07:00')
    await dialog.getByRole('tab', { name: 'Queue data' }).click()
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.getByText('Enter a time as HH:MM (00:00 to 23:59).').waitFor()
    await dialog.getByText('The end must not be before the start.').waitFor()
    expect(await dialog.getByRole('tab', { name: 'Attendance time' }).getAttribute('aria-selected')).toBe('true')
    await dialog.getByRole('textbox', { name: 'Monday opens' }).fill('09:00')
    await dialog.getByRole('textbox', { name: 'Tuesday closes' }).fill('17:30')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await toast(page, 'Queue saved.')
    const [suporte] = await harness.context.db.select().from(queues).where(eq(queues.name, 'Suporte'))
    expect(suporte!.schedules.find((entry) => entry.weekdayEn === 'monday')).toMatchObject({ startTime: '09:00', endTime: '18:00' })
    expect(suporte!.schedules.find((entry) => entry.weekdayEn === 'tuesday')).toMatchObject({ startTime: '08:00', endTime: '17:30' })
    expect(suporte!.schedules).toHaveLength(7)

    // Off again: the tab is gone (and the customer below is answered at any hour).
    await setScheduleType('disabled')
    // The dialog asks for the setting as it opens: the tab is counted once that answer is in.
    const settingsAnswered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/settings' && response.request().method() === 'GET')
    await row(page, 'Suporte').getByRole('button', { name: 'Edit Suporte' }).click()
    await dialog.getByRole('tab', { name: 'Chatbot options' }).waitFor()
    await settingsAnswered
    await Bun.sleep(300)
    expect(await dialog.getByRole('tab', { name: 'Attendance time' }).count()).toBe(0)
    await dialog.getByRole('button', { name: 'Close' }).click()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('a simulated customer walks the menu built above: queues, options, a leaf', async () => {
    const companyId = tenant.company.id
    harness.context.simulator.configure({ qrDelayMs: 5, connectDelayMs: 20, ackDelayMs: 10 })
    const queueIds = (await harness.context.db.select({ id: queues.id }).from(queues).where(eq(queues.companyId, companyId))).map((queue) => queue.id)
    const created = await tenant.asAdmin.api.whatsapp.post({ name: 'Loja', provider: 'simulator', greetingMessage: 'Olá, {{firstName}}! Escolha um setor:', queueIds })
    expect(created.status).toBe(200)
    const whatsappId = created.data!.id
    await waitFor(async () => (await harness.context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
    const simulator = tenant.asAdmin.api.simulator({ whatsappId })
    const outbox = async () => (await simulator.outbox.get({ query: {} })).data!.messages.map((message) => message.body)
    const write = async (body: string) => {
      const before = (await outbox()).length
      const posted = await simulator.inbound.post({ from: '5511987650001', name: 'Joana Lima', body })
      expect(posted.status).toBe(200)
      await waitFor(async () => (await outbox()).length > before)
      return (await outbox()).at(-1)
    }

    expect(await write('Oi')).toBe('Olá, Joana! Escolha um setor:\n\n*1* - Vendas\n*2* - Suporte')
    expect(await write('2')).toBe('Suporte aqui, Joana.\n\n*1* - Financeiro\n*2* - Técnico\n*0* - Voltar\n*#* - Menu inicial')
    expect(await write('1')).toBe('Financeiro: escolha\n\n*1* - Boleto\n*0* - Voltar\n*#* - Menu inicial')
    expect(await write('1')).toBe('Segue o boleto.')
  }, E2E_TIMEOUT)

  test('pt and es; an agent is turned away', async () => {
    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, admin, '/queues')
    for (const [language, title, name] of [
      ['pt', 'Filas e chatbot', 'Nome'],
      ['es', 'Colas y chatbot', 'Nombre'],
    ] as const) {
      await page.evaluate((code) => localStorage.setItem('language', code), language)
      await page.reload()
      await page.getByRole('heading', { name: title }).waitFor()
      await page.getByRole('columnheader', { name, exact: true }).waitFor()
      await row(page, 'Suporte').waitFor()
    }
    await browserContext.close()

    const agent = await openPage(harness)
    await signInTo(agent.page, tenant.agent, '/queues')
    await agent.page.getByText('You do not have permission to access this page.').waitFor()
    // The gate redirects after 1 s; the next page's load on a busy machine takes what it takes.
    await agent.page.waitForURL((url) => url.pathname !== '/queues', { timeout: 20_000 })
    expect(await agent.page.getByRole('heading', { name: 'Queues & chatbot' }).count()).toBe(0)
    expect(unexpectedErrors(problems)).toEqual([])
    expect(unexpectedErrors(agent.problems)).toEqual([])
    await agent.browserContext.close()
  }, E2E_TIMEOUT * 2)
})
