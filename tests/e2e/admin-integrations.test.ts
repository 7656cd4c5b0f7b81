// The queue integrations page (/queue-integration) in the browser: the list titled with its count,
// the dialog whose fields follow the type with the §5 checks before sending, the server's refusals,
// search, edit, delete with confirmation, live updates seen from a second page, the §6 gates, and
// the screenshots.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { queueIntegrations } from '../../db/schema/index.ts'
import { makeCompany, makePlan, makeUser, signIn } from '../helpers/factories.ts'
import { createSecretBox } from '../../src/core/crypto/secret-box.ts'
import { openText } from '../../src/core/crypto/sealed-text.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors } from './support/harness.ts'

const harness = await startWebHarness()
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')
const serviceAccount = JSON.stringify({ type: 'service_account', project_id: 'padaria-bot', client_email: 'bot@padaria-bot.iam.example' })

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

/** The rows of the table's body that hold data (not the empty, loading or sentinel rows). */
function dataRows(page: Page, table = 'Integrations') {
  return page.getByRole('table', { name: table }).locator('tbody tr:not(:has(.data-table-empty, .data-table-loading, .data-table-sentinel))')
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

async function storedIntegrations(companyId: number) {
  return harness.context.db.select().from(queueIntegrations).where(eq(queueIntegrations.companyId, companyId))
}

describeInBrowser('queue integrations page', () => {
  test('an admin adds a webhook and a typebot (refused first), searches, edits and deletes; a second page follows live', async () => {
    const company = await makeCompany(harness.context.db)
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' })
    const colleague = harness.context.as((await signIn(harness.context, await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' }))).token)
    await colleague.api.queueIntegration.post({ type: 'dialogflow', name: 'Agent FAQ', projectName: 'faq-agent', jsonContent: serviceAccount, language: 'pt-BR' })

    const { page, browserContext, problems } = await openPage(harness)
    const writes: string[] = []
    const searches: string[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.pathname.startsWith('/api/queueIntegration') && request.method() !== 'GET') writes.push(`${request.method()} ${url.pathname}`)
      if (url.pathname === '/api/queueIntegration' && url.searchParams.has('searchParam')) searches.push(url.searchParams.get('searchParam')!)
    })
    await signInThroughForm(page, admin)
    // The side menu offers the page to an admin of a plan with integrations.
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Integrations' }).click()
    await page.waitForURL('**/queue-integration')
    const ready = socketReady(page)
    await page.reload()
    await ready
    await page.getByRole('heading', { name: 'Integrations (1)', level: 1 }).waitFor()
    const rows = dataRows(page)
    await rows.first().waitFor()
    expect(await rows.first().getByRole('img', { name: 'Dialogflow' }).count()).toBe(1)
    expect(await rows.first().innerText()).toMatch(/\d+\s+Agent FAQ/)

    // The second page: another tab of the same admin, watching.
    const watcher = await browserContext.newPage()
    const watcherReady = socketReady(watcher)
    await watcher.goto('/queue-integration')
    await watcherReady
    await watcher.getByRole('heading', { name: 'Integrations (1)', level: 1 }).waitFor()
    // The admin goes back to the first tab, as a person must before clicking in it. Chromium draws only
    // the front tab of a window: in the tab behind, animation frames come about once a second and every
    // click waited ~2 s for them (this test took 37 s instead of 10). The watcher, behind, still follows.
    await page.bringToFront()

    // A webhook: the §5 checks refuse the form before anything is sent.
    await page.getByRole('button', { name: 'Add integration' }).click()
    const dialog = page.getByRole('dialog', { name: 'New integration' })
    await dialog.getByRole('textbox', { name: 'Name' }).fill('a')
    await dialog.getByRole('textbox', { name: 'URL' }).fill('hooks.example.com/orders')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Enter a name of 2 to 50 characters.').waitFor()
    await dialog.getByText('Enter a full address starting with http:// or https://.').waitFor()
    expect(writes).toEqual([])
    // Dialogflow's fields are not shown for a webhook.
    expect(await dialog.getByRole('textbox', { name: 'Service account key (JSON)' }).count()).toBe(0)
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Orders hook')
    await dialog.getByRole('textbox', { name: 'URL' }).fill('https://hooks.example.com/orders')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Integration added.').waitFor()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Integrations (2)', level: 1 }).waitFor()
    await rows.filter({ hasText: 'Orders hook' }).getByRole('img', { name: 'Webhook' }).waitFor()
    await dataRows(watcher).filter({ hasText: 'Orders hook' }).waitFor()
    await watcher.getByRole('heading', { name: 'Integrations (2)', level: 1 }).waitFor()

    // The same name again: the server's refusal lands on the field.
    await page.getByRole('button', { name: 'Add integration' }).click()
    await dialog.getByRole('textbox', { name: 'Name' }).fill('ORDERS HOOK')
    await dialog.getByRole('textbox', { name: 'URL' }).fill('https://hooks.example.com/other')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('An integration with this name already exists.').waitFor()

    // Now a typebot, in the same dialog: the slug is required, the settings start at §9's defaults.
    await dialog.getByRole('button', { name: /Type/ }).click()
    await page.getByRole('option', { name: 'Typebot' }).click()
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Lead form')
    await dialog.getByRole('textbox', { name: 'URL' }).fill('https://typebot.example.com')
    expect(await dialog.getByRole('textbox', { name: 'Session expiry (minutes)' }).inputValue()).toBe('1')
    expect(await dialog.getByRole('textbox', { name: 'Delay between messages (ms)' }).inputValue()).toBe('1000')
    await dialog.getByRole('textbox', { name: 'Delay between messages (ms)' }).fill('70000')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText("Enter the typebot's slug.").waitFor()
    await dialog.getByText('Enter a whole number of milliseconds from 0 to 60000.').waitFor()
    await dialog.getByRole('textbox', { name: 'Typebot slug' }).fill('lead-form')
    await dialog.getByRole('textbox', { name: 'Delay between messages (ms)' }).fill('1500')
    await dialog.getByRole('textbox', { name: 'Keyword to finish' }).fill('#sair')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Integration added.').first().waitFor()
    await dialog.waitFor({ state: 'detached' })
    await rows.filter({ hasText: 'Lead form' }).getByRole('img', { name: 'Typebot' }).waitFor()
    await page.getByRole('heading', { name: 'Integrations (3)', level: 1 }).waitFor()
    expect(writes.filter((write) => write.startsWith('POST'))).toHaveLength(3)
    const typebot = (await storedIntegrations(company.id)).find((row) => row.name === 'Lead form')!
    expect(typebot).toMatchObject({ type: 'typebot', projectName: 'Lead form', typebotSlug: 'lead-form', typebotExpires: 1, typebotDelayMessage: 1500, typebotKeywordFinish: '#sair' })

    // Search: lower-cased, debounced.
    const search = page.getByRole('searchbox', { name: 'Search integrations' })
    await search.fill('ORDERS')
    await page.getByRole('heading', { name: 'Integrations (1)', level: 1 }).waitFor()
    expect(await rows.allInnerTexts()).toEqual([expect.stringContaining('Orders hook')])
    expect(searches).toEqual(['orders'])
    await search.fill('')
    await rows.filter({ hasText: 'Lead form' }).waitFor()

    // Edit the webhook; the watcher sees the new name.
    await page.getByRole('button', { name: 'Edit Orders hook' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit integration' })
    expect(await edit.getByRole('textbox', { name: 'URL' }).inputValue()).toBe('https://hooks.example.com/orders')
    await edit.getByRole('textbox', { name: 'Name' }).fill('Orders webhook')
    await edit.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Integration edited.').waitFor()
    await rows.filter({ hasText: 'Orders webhook' }).waitFor()
    await dataRows(watcher).filter({ hasText: 'Orders webhook' }).waitFor()

    // A colleague's change arrives live too.
    const agentFaq = (await storedIntegrations(company.id)).find((row) => row.name === 'Agent FAQ')!
    await colleague.api.queueIntegration({ id: agentFaq.id }).put({ name: 'Agent FAQ v2' })
    await rows.filter({ hasText: 'Agent FAQ v2' }).waitFor()

    // The Dialogflow key never reaches the browser: the form says one is stored and, left empty, keeps it.
    await page.getByRole('button', { name: 'Edit Agent FAQ v2' }).click()
    const keyEdit = page.getByRole('dialog', { name: 'Edit integration' })
    expect(await keyEdit.getByRole('textbox', { name: 'Service account key (JSON)' }).inputValue()).toBe('')
    await keyEdit.getByText('A key is stored (**** bot@padaria-bot.iam.example). Paste a new key to replace it, or leave this empty to keep it.').waitFor()
    await keyEdit.getByRole('textbox', { name: 'Project ID' }).fill('faq-agent-2')
    await keyEdit.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Integration edited.').last().waitFor()
    await keyEdit.waitFor({ state: 'detached' })
    const keptKey = (await storedIntegrations(company.id)).find((row) => row.id === agentFaq.id)!
    expect(keptKey.projectName).toBe('faq-agent-2')
    expect(openText(createSecretBox(harness.context.deps.config.secretsKey), keptKey.jsonContent)).toBe(serviceAccount)

    // Delete, confirmed; the watcher loses the row and the count follows.
    await page.getByRole('button', { name: 'Delete Lead form' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete integration' })
    await confirm.getByText('Do you really want to delete this record?').waitFor()
    await confirm.getByText('Integration: Lead form.', { exact: false }).waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Integration deleted.').waitFor()
    await rows.filter({ hasText: 'Lead form' }).waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Integrations (2)', level: 1 }).waitFor()
    await dataRows(watcher).filter({ hasText: 'Lead form' }).waitFor({ state: 'detached' })
    await watcher.getByRole('heading', { name: 'Integrations (2)', level: 1 }).waitFor()
    expect((await storedIntegrations(company.id)).map((row) => row.name).sort()).toEqual(['Agent FAQ v2', 'Orders webhook'])

    expect(unexpectedErrors(problems, [409])).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 3)

  test('a plan without useIntegrations sends its admin away with the toast; an agent is sent away too; neither sees the menu item', async () => {
    const plan = await makePlan(harness.context.db, { useIntegrations: false })
    const company = await makeCompany(harness.context.db, { planId: plan.id })
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin' })
    const { page, browserContext } = await openPage(harness)
    await signInThroughForm(page, admin)
    const menu = page.getByRole('navigation', { name: 'Main menu' })
    await menu.getByRole('link', { name: 'Users' }).waitFor()
    expect(await menu.getByRole('link', { name: 'Integrations' }).count()).toBe(0)
    await page.goto('/queue-integration')
    await page.getByText('Your company does not have permission to access this page. Redirecting…').waitFor()
    await page.waitForURL((url) => url.pathname !== '/queue-integration')
    expect(await page.getByRole('table', { name: 'Integrations' }).count()).toBe(0)
    await browserContext.close()

    const withPlan = await makeCompany(harness.context.db)
    const agent = await makeUser(harness.context.db, { companyId: withPlan.id, profile: 'user' })
    const second = await openPage(harness)
    await signInThroughForm(second.page, agent)
    expect(await second.page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Integrations' }).count()).toBe(0)
    await second.page.goto('/queue-integration')
    await second.page.getByText('You do not have permission to access this page.').waitFor()
    await second.page.waitForURL((url) => url.pathname !== '/queue-integration')
    await second.browserContext.close()
  }, E2E_TIMEOUT)

  test('Portuguese and Spanish titles, and the screenshots of the list and the typebot dialog', async () => {
    mkdirSync(screenshots, { recursive: true })
    const company = await makeCompany(harness.context.db, { name: 'Padaria Pão Quente' })
    const admin = await makeUser(harness.context.db, { companyId: company.id, profile: 'admin', name: 'Ana Lima' })
    const client = harness.context.as((await signIn(harness.context, admin)).token)
    await client.api.queueIntegration.post({ type: 'dialogflow', name: 'Atendimento FAQ', projectName: 'padaria-bot', jsonContent: serviceAccount, language: 'pt-BR' })
    await client.api.queueIntegration.post({ type: 'n8n', name: 'Fluxo de pedidos', urlN8N: 'https://n8n.padaria.example/webhook/pedidos' })
    await client.api.queueIntegration.post({ type: 'webhook', name: 'Notificar cozinha', urlN8N: 'https://cozinha.padaria.example/avisos' })
    await client.api.queueIntegration.post({ type: 'typebot', name: 'Cardápio interativo', urlN8N: 'https://typebot.padaria.example', typebotSlug: 'cardapio' })

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await page.goto('/queue-integration')
    await page.getByRole('heading', { name: 'Integrações (4)', level: 1 }).waitFor()
    await dataRows(page, 'Integrações').nth(3).waitFor()
    await settle(page)
    await page.screenshot({ path: join(screenshots, 'queue-integration.png') })

    await page.getByRole('button', { name: 'Editar Cardápio interativo' }).click()
    const dialog = page.getByRole('dialog', { name: 'Editar integração' })
    await dialog.getByRole('textbox', { name: 'Slug do typebot' }).waitFor()
    await settle(page)
    await page.screenshot({ path: join(screenshots, 'queue-integration-dialog.png') })
    await dialog.getByRole('button', { name: 'Cancelar' }).click()

    await page.evaluate(() => localStorage.setItem('language', 'es'))
    await page.goto('/queue-integration')
    await page.getByRole('heading', { name: 'Integraciones (4)', level: 1 }).waitFor()
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
