// /prompts in the browser (§2 "Prompts", §5 Prompt, §6 plan gate, §7 realtime `prompt`): an admin is
// stopped by the §5 check (no queue: 'Select a queue', nothing saved), meets the server's refusals on
// their fields, creates, edits and deletes (confirmation naming the prompt) while a second page follows
// live; a plan without useOpenAi and a plain user are sent away. Screenshots in Portuguese.
import { afterAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Locator, Page } from 'playwright-core'
import { prompts, queues } from '../../db/schema/index.ts'
import { makeCompany, makePlan, makeQueue, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors } from './support/harness.ts'
import { createSecretBox } from '../../src/core/crypto/secret-box.ts'
import { openText } from '../../src/core/crypto/sealed-text.ts'

// A local OpenAI-compatible server for the "try it" panel: it echoes the customer's last words, and
// hands off (the tool call) when he asks for a human.
const fakeModel = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const body = (await request.json()) as { messages: { content: string }[] }
    const last = body.messages.at(-1)!.content
    const message = /human/i.test(last)
      ? { role: 'assistant', content: '', tool_calls: [{ id: 'h1', type: 'function', function: { name: 'handoff_to_human', arguments: JSON.stringify({ reason: 'The customer asked for a person' }) } }] }
      : { role: 'assistant', content: `Eco: ${last}` }
    return Response.json({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message, finish_reason: 'stop' }], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } })
  },
})
afterAll(() => fakeModel.stop(true))
const harness = await startWebHarness({
  config: { outbound: { allowedHosts: ['127.0.0.1'], allowHttp: true, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 }, openai: { baseUrl: `http://127.0.0.1:${fakeModel.port}/v1`, timeoutMs: 5000 } },
})
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

const PROMPT_TEXT = 'Você é o atendente da Padaria Pão Quente. Responda com educação, em frases curtas, sobre horários e encomendas.'
const API_KEY = 'sk-test-0123456789abcdefWXYZ'

/** The rows of the prompts table that hold data (not the empty or loading rows). */
function dataRows(page: Page, table = 'Prompts') {
  return page.getByRole('table', { name: table }).locator('tbody tr:not(:has(.data-table-empty, .data-table-loading, .data-table-sentinel))')
}

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) })
}

/** The page's socket is up (its ready frame arrived), so a change made now reaches it. */
function socketReady(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', (frame) => {
        if (String(frame.payload).includes('"event":"ready"')) resolve()
      })
    })
  })
}

async function choose(page: Page, dialog: Locator, select: RegExp, option: string) {
  await dialog.getByRole('button', { name: select }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

/** The key is sealed in the table (SECRETS_KEY): rows are read with it opened. */
async function companyPrompts(companyId: number) {
  const box = createSecretBox(harness.context.deps.config.secretsKey)
  return (await harness.context.db.select().from(prompts).where(eq(prompts.companyId, companyId))).map((row) => ({ ...row, apiKey: openText(box, row.apiKey) }))
}

async function dismissToasts(page: Page) {
  const closers = page.locator('.toast-close')
  while ((await closers.count()) > 0) await closers.first().click()
}

describeInBrowser('prompts page', () => {
  test('an admin is stopped without a queue, then creates, edits and deletes a prompt while a second page follows live', async () => {
    const company = await makeCompany(harness.context.db)
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' })
    await makeQueue(harness.context.db, { companyId: company.id, name: 'Orders' })
    const support = await makeQueue(harness.context.db, { companyId: company.id, name: 'Support' })
    const doomed = await makeQueue(harness.context.db, { companyId: company.id, name: 'Closed desk' })

    // The second page is another admin's: a new sign-in ends the same user's other sessions.
    const colleague = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' })
    const watcher = await openPage(harness)
    await signInThroughForm(watcher.page, colleague)
    const watcherReady = socketReady(watcher.page)
    await watcher.page.goto('/prompts')
    await watcherReady
    await watcher.page.getByText('No prompts yet.').waitFor()

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)
    // The side menu offers the page (admin, plan with useOpenAi).
    await page.getByRole('link', { name: 'Prompts' }).click()
    await page.waitForURL('**/prompts')
    await page.getByRole('heading', { name: 'Prompts', level: 1 }).waitFor()
    expect(await page.title()).toContain('Prompts')
    await page.getByText('No prompts yet.').waitFor()
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['Name', 'Queue', 'Max tokens', 'Actions'])

    // §5: a short name and no queue: both said, nothing sent.
    await page.getByRole('button', { name: 'Add prompt' }).click()
    const dialog = page.getByRole('dialog', { name: 'New prompt' })
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Bot')
    await dialog.getByRole('textbox', { name: 'Prompt' }).fill(PROMPT_TEXT)
    await dialog.getByLabel('OpenAI API key').fill(API_KEY)
    // §9 defaults.
    expect(await dialog.getByRole('textbox', { name: 'Max tokens' }).inputValue()).toBe('100')
    expect(await dialog.getByRole('textbox', { name: 'Temperature' }).inputValue()).toBe('1.0')
    expect(await dialog.getByRole('textbox', { name: 'Max messages' }).inputValue()).toBe('10')
    // The model: §9's default, the two spec models suggested, any other name typed.
    expect(await dialog.getByRole('combobox', { name: 'Model' }).inputValue()).toBe('gpt-3.5-turbo-1106')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.locator('.field-error', { hasText: 'Select a queue.' }).waitFor()
    await dialog.locator('.field-error', { hasText: 'Enter a name of 5 to 100 characters.' }).waitFor()
    await page.locator('.toast', { hasText: 'Select a queue.' }).waitFor()
    expect(await companyPrompts(company.id)).toEqual([])

    // A queue removed since the page loaded: the server's refusal lands on the queue field.
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Bakery bot')
    await choose(page, dialog, /Queue/, 'Closed desk')
    await harness.context.db.delete(queues).where(eq(queues.id, doomed.id))
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.locator('.field-error', { hasText: 'Select a queue.' }).waitFor()
    expect(await companyPrompts(company.id)).toEqual([])

    await choose(page, dialog, /Queue/, 'Orders')
    await dialog.getByRole('button', { name: 'Show suggested models' }).click()
    await page.getByRole('option', { name: 'GPT 4.0 (gpt-4o-mini)' }).click()
    expect(await dialog.getByRole('combobox', { name: 'Model' }).inputValue()).toBe('gpt-4o-mini')
    await dialog.getByRole('textbox', { name: 'Temperature' }).fill('0.7')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('Prompt created.').waitFor()
    await dialog.waitFor({ state: 'detached' })
    expect(await row(page, 'Bakery bot').innerText()).toMatch(/Bakery bot\s+Orders\s+100/)
    const [stored] = await companyPrompts(company.id)
    expect(stored).toMatchObject({ name: 'Bakery bot', model: 'gpt-4o-mini', temperature: 0.7, maxTokens: 100, maxMessages: 10, apiKey: API_KEY })
    await row(watcher.page, 'Bakery bot').waitFor()

    // The same name again: the server's 409 on the name field.
    await page.getByRole('button', { name: 'Add prompt' }).click()
    await dialog.getByRole('textbox', { name: 'Name' }).fill('BAKERY BOT')
    await dialog.getByRole('textbox', { name: 'Prompt' }).fill(PROMPT_TEXT)
    await dialog.getByLabel('OpenAI API key').fill(API_KEY)
    await choose(page, dialog, /Queue/, 'Support')
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await dialog.locator('.field-error', { hasText: 'A prompt with this name already exists.' }).waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    // Edit: the key never reaches the browser: the form says one is stored (masked) and, left empty, keeps it.
    await page.getByRole('button', { name: 'Edit Bakery bot' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit prompt' })
    expect(await edit.getByLabel('OpenAI API key').inputValue()).toBe('')
    await edit.getByText('A key is stored (****WXYZ). Enter a new key to replace it, or leave this empty to keep it.').waitFor()
    expect(await edit.getByRole('textbox', { name: 'Temperature' }).inputValue()).toBe('0.7')
    expect(await edit.getByRole('combobox', { name: 'Model' }).inputValue()).toBe('gpt-4o-mini')
    // A self-hosted server's model: a name of its own, typed.
    await edit.getByRole('combobox', { name: 'Model' }).fill('llama 3')
    await edit.getByRole('button', { name: 'Save', exact: true }).click()
    await edit.locator('.field-error', { hasText: 'Enter a model name' }).waitFor()
    await edit.getByRole('combobox', { name: 'Model' }).fill('llama3.1:8b')
    await edit.getByRole('textbox', { name: 'Name' }).fill('Bakery assistant')
    await edit.getByRole('textbox', { name: 'Max tokens' }).fill('250')
    await choose(page, edit, /Queue/, 'Support')
    await edit.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('Prompt saved.').waitFor()
    await edit.waitFor({ state: 'detached' })
    expect(await row(page, 'Bakery assistant').innerText()).toMatch(/Bakery assistant\s+Support\s+250/)
    expect(await row(watcher.page, 'Bakery assistant').innerText()).toMatch(/Bakery assistant\s+Support\s+250/)
    expect((await companyPrompts(company.id))[0]).toMatchObject({ name: 'Bakery assistant', maxTokens: 250, queueId: support.id, model: 'llama3.1:8b', apiKey: API_KEY })

    // en: the "try it" panel answers as a customer would see it, and shows a hand-off with its reason.
    await page.getByRole('button', { name: 'Try Bakery assistant' }).click()
    const trying = page.getByRole('dialog', { name: 'Try Bakery assistant' })
    await trying.getByRole('textbox', { name: 'Message' }).fill('Do you bake rye bread?')
    await trying.getByRole('button', { name: 'Send' }).click()
    await trying.getByText('Eco: Do you bake rye bread?').waitFor()
    await trying.getByRole('textbox', { name: 'Message' }).fill('I want a human, please')
    await trying.getByRole('button', { name: 'Send' }).click()
    await trying.getByText('Handed to a person: The customer asked for a person').waitFor()
    await trying.getByRole('button', { name: 'Close' }).first().click()
    await page.getByText('Tokens used by AI answers and tries: 20').waitFor()

    // Delete, after a confirmation that names the prompt; the second page loses the row too.
    await page.getByRole('button', { name: 'Delete Bakery assistant' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete prompt' })
    await confirm.getByText('Do you really want to delete the prompt Bakery assistant?').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Prompt deleted.').waitFor()
    await page.getByText('No prompts yet.').waitFor()
    await watcher.page.getByText('No prompts yet.').waitFor()
    expect(await companyPrompts(company.id)).toEqual([])

    expect(unexpectedErrors(problems, [409, 422])).toEqual([])
    expect(unexpectedErrors(watcher.problems)).toEqual([])
    await watcher.browserContext.close()
    await browserContext.close()
  }, E2E_TIMEOUT * 3)

  test('a plan without useOpenAi sends its admin away with a toast, and the menu has no Prompts; a plain user is refused too', async () => {
    const plan = await makePlan(harness.context.db, { useOpenAi: false })
    const company = await makeCompany(harness.context.db, { planId: plan.id })
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' })
    const { page, browserContext } = await openPage(harness)
    await signInThroughForm(page, admin)
    // The plan's features have loaded (Schedules waits for them), and Prompts is not offered.
    await page.getByRole('link', { name: 'Schedules' }).waitFor()
    await page.getByRole('link', { name: 'Connections' }).waitFor()
    expect(await page.getByRole('link', { name: 'Prompts' }).count()).toBe(0)
    await page.goto('/prompts')
    await page.getByText('Your company does not have permission to access this page. Redirecting…').waitFor()
    await page.waitForURL((url) => url.pathname !== '/prompts')
    await browserContext.close()

    const allowed = await makeCompany(harness.context.db)
    const agent = await makeUser(harness.context.db, { companyId: allowed.id, profile: 'user' })
    const second = await openPage(harness)
    await signInThroughForm(second.page, agent)
    await second.page.getByRole('link', { name: 'Schedules' }).waitFor()
    expect(await second.page.getByRole('link', { name: 'Prompts' }).count()).toBe(0)
    await second.page.goto('/prompts')
    await second.page.getByText('You do not have permission to access this page.').waitFor()
    await second.page.waitForURL((url) => url.pathname !== '/prompts')
    await second.browserContext.close()
  }, E2E_TIMEOUT)

  test('Portuguese and Spanish titles, the "try it" panel in both, and the screenshots (list and dialog)', async () => {
    mkdirSync(screenshots, { recursive: true })
    const company = await makeCompany(harness.context.db, { name: 'Padaria Pão Quente' })
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin', name: 'Ana Lima' })
    const orders = await makeQueue(harness.context.db, { companyId: company.id, name: 'Encomendas', color: '#1d4ed8' })
    const support = await makeQueue(harness.context.db, { companyId: company.id, name: 'Suporte', color: '#0b6e4f' })
    await harness.context.db.insert(prompts).values([
      { companyId: company.id, name: 'Atendente de encomendas', prompt: PROMPT_TEXT, apiKey: API_KEY, queueId: orders.id, maxTokens: 300, temperature: 0.7 },
      { companyId: company.id, name: 'Suporte ao cliente', prompt: PROMPT_TEXT, apiKey: API_KEY, queueId: support.id, model: 'gpt-4o-mini' },
    ])

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await page.goto('/prompts')
    await page.getByRole('heading', { name: 'Prompts', level: 1 }).waitFor()
    await dataRows(page).nth(1).waitFor()
    await page.waitForLoadState('networkidle')
    await dismissToasts(page)
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.screenshot({ path: join(screenshots, 'prompts.png') })

    await page.getByRole('button', { name: 'Editar Atendente de encomendas' }).click()
    const dialog = page.getByRole('dialog', { name: 'Editar prompt' })
    await dialog.getByRole('textbox', { name: 'Temperatura' }).waitFor()
    // The modal keeps focus inside: a click on its title moves it off the name field and its ring.
    await dialog.getByRole('heading', { name: 'Editar prompt' }).click()
    await page.screenshot({ path: join(screenshots, 'prompts-dialog.png') })
    await dialog.getByRole('button', { name: 'Cancelar' }).click()

    // pt: the "try it" panel.
    await page.getByRole('button', { name: 'Testar Suporte ao cliente' }).click()
    const testing = page.getByRole('dialog', { name: 'Testar Suporte ao cliente' })
    await testing.getByRole('textbox', { name: 'Mensagem' }).fill('Vocês abrem no domingo?')
    await testing.getByRole('button', { name: 'Enviar' }).click()
    await testing.getByText('Eco: Vocês abrem no domingo?').waitFor()
    await testing.getByRole('button', { name: 'Fechar' }).first().click()
    await page.getByText('Tokens usados pelas respostas da IA e pelos testes: 10').waitFor()

    await page.evaluate(() => localStorage.setItem('language', 'es'))
    await page.goto('/prompts')
    await page.getByRole('button', { name: 'Añadir prompt' }).waitFor()
    // The "try it" panel talks to the prompt as a customer would; the turn counts in the usage line.
    await page.getByRole('button', { name: 'Probar Atendente de encomendas' }).click()
    const trying = page.getByRole('dialog', { name: 'Probar Atendente de encomendas' })
    await trying.getByRole('textbox', { name: 'Mensaje' }).fill('¿Tienen pan integral?')
    await trying.getByRole('button', { name: 'Enviar' }).click()
    await trying.getByText('Eco: ¿Tienen pan integral?').waitFor()
    await trying.getByRole('button', { name: 'Cerrar' }).first().click()
    await page.getByText('Tokens usados por las respuestas de la IA y las pruebas: 20').waitFor()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
