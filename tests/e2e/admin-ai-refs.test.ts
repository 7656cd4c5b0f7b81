// The AI prompt and the integration of a connection and of a queue, in the browser (§3 Connection
// promptId and integration, §3 Queue promptId and integrationId, §6 plan gates): an admin picks them
// in each dialog, saves, reopens and finds them kept (the API agrees); a plan without useOpenAi and
// useIntegrations shows neither select, and saving there keeps what was stored.
import { expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Locator, Page } from 'playwright-core'
import { prompts, queueIntegrations, queues, whatsapps } from '../../db/schema/index.ts'
import { makeConnection, makeQueue, makeTenant } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, signInTo, startWebHarness, unexpectedErrors } from './support/harness.ts'

const harness = await startWebHarness()

const PROMPT_TEXT = 'Você é o atendente da Padaria Pão Quente. Responda com educação, em frases curtas, sobre horários e encomendas.'

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) })
}

/** A select by its label: react-aria names its button after the chosen value and the label. */
function select(dialog: Locator, label: string) {
  return dialog.getByRole('button', { name: new RegExp(`${label}$`) })
}

async function choose(page: Page, dialog: Locator, label: string, option: string) {
  await select(dialog, label).click()
  // The choices load on their own: the option shows up once GET /prompt or /queueIntegration answered.
  await page.getByRole('option', { name: option, exact: true }).click()
  await select(dialog, label).filter({ hasText: option }).waitFor()
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' })

/** The plan's features are known once a menu item gated by one (useSchedules, on) shows. */
async function planLoaded(page: Page) {
  await menu(page).getByRole('link', { name: 'Schedules' }).waitFor()
}

async function dismissToasts(page: Page) {
  const closers = page.locator('.toast-close')
  while ((await closers.count()) > 0) await closers.first().click()
}

describeInBrowser('AI prompt and integration of connections and queues', () => {
  test('an admin picks a prompt and an integration for a connection and a queue; reopened, they are kept', async () => {
    const tenant = await makeTenant(harness.context)
    const companyId = tenant.company.id
    const queue = await makeQueue(harness.context.db, { companyId, name: 'Encomendas', color: '#1d4ed8' })
    const connection = await makeConnection(harness.context.db, { companyId, name: 'Balcão', isDefault: true })
    // Made through the API, as an admin would on their pages (before the browser signs the admin in:
    // a new sign-in ends the user's other sessions).
    const prompt = await tenant.asAdmin.api.prompt.post({ name: 'Atendente virtual', prompt: PROMPT_TEXT, apiKey: 'sk-test-0123456789', queueId: queue.id })
    expect(prompt.status).toBe(200)
    const integration = await tenant.asAdmin.api.queueIntegration.post({ type: 'webhook', name: 'Pedidos n8n', urlN8N: 'https://hooks.example.com/pedidos' })
    expect(integration.status).toBe(200)
    // A second choice of each, so that picking is a real choice.
    await tenant.asAdmin.api.prompt.post({ name: 'Bot de vendas', prompt: PROMPT_TEXT, apiKey: 'sk-test-0123456789', queueId: queue.id })
    await tenant.asAdmin.api.queueIntegration.post({ type: 'webhook', name: 'Alertas', urlN8N: 'https://hooks.example.com/alertas' })

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, tenant.admin)

    // The connection: both selects on the chatbot tab.
    await page.goto('/connections')
    await row(page, 'Balcão').getByRole('button', { name: 'Edit Balcão' }).click()
    const connectionForm = page.getByRole('dialog', { name: 'Edit WhatsApp connection' })
    await connectionForm.getByRole('tab', { name: 'Chatbot and expiry' }).click()
    await select(connectionForm, 'AI prompt').filter({ hasText: 'No prompt' }).waitFor()
    await select(connectionForm, 'Integration').filter({ hasText: 'None' }).waitFor()
    await choose(page, connectionForm, 'AI prompt', 'Atendente virtual')
    await choose(page, connectionForm, 'Integration', 'Pedidos n8n')
    await connectionForm.getByRole('button', { name: 'Save', exact: true }).click()
    await connectionForm.waitFor({ state: 'detached' })
    await page.getByText('Connection saved.').waitFor()

    await row(page, 'Balcão').getByRole('button', { name: 'Edit Balcão' }).click()
    await connectionForm.getByRole('tab', { name: 'Chatbot and expiry' }).click()
    await select(connectionForm, 'AI prompt').filter({ hasText: 'Atendente virtual' }).waitFor()
    await select(connectionForm, 'Integration').filter({ hasText: 'Pedidos n8n' }).waitFor()
    await connectionForm.getByRole('button', { name: 'Cancel' }).click()
    await connectionForm.waitFor({ state: 'detached' })
    const savedConnection = await tenant.asAgent.api.whatsapp({ id: connection.id }).get()
    expect(savedConnection.data).toMatchObject({ promptId: prompt.data!.id, integrationId: integration.data!.id })

    // The queue: both selects on the data tab.
    await dismissToasts(page)
    await page.goto('/queues')
    await row(page, 'Encomendas').getByRole('button', { name: 'Edit Encomendas' }).click()
    const queueForm = page.getByRole('dialog', { name: 'Edit queue' })
    await choose(page, queueForm, 'AI prompt', 'Atendente virtual')
    await choose(page, queueForm, 'Integration', 'Pedidos n8n')
    await queueForm.getByRole('button', { name: 'Save', exact: true }).click()
    await queueForm.waitFor({ state: 'detached' })
    await page.getByText('Queue saved.').last().waitFor()

    await row(page, 'Encomendas').getByRole('button', { name: 'Edit Encomendas' }).click()
    await select(queueForm, 'AI prompt').filter({ hasText: 'Atendente virtual' }).waitFor()
    await select(queueForm, 'Integration').filter({ hasText: 'Pedidos n8n' }).waitFor()
    // Back to none for the prompt: null clears it.
    await choose(page, queueForm, 'AI prompt', 'No prompt')
    await queueForm.getByRole('button', { name: 'Save', exact: true }).click()
    await queueForm.waitFor({ state: 'detached' })
    const savedQueue = await tenant.asAgent.api.queue({ id: queue.id }).get()
    expect(savedQueue.data).toMatchObject({ promptId: null, integrationId: integration.data!.id })
    // The connection kept its own: the two are independent.
    const [connectionRow] = await harness.context.db.select().from(whatsapps).where(eq(whatsapps.id, connection.id))
    expect(connectionRow).toMatchObject({ promptId: prompt.data!.id, integrationId: integration.data!.id })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)

  test('a plan without useOpenAi and useIntegrations shows neither select, and saving keeps what was stored', async () => {
    const tenant = await makeTenant(harness.context, { plan: { useOpenAi: false, useIntegrations: false } })
    const companyId = tenant.company.id
    const queue = await makeQueue(harness.context.db, { companyId, name: 'Recepção', color: '#1d4ed8' })
    const connection = await makeConnection(harness.context.db, { companyId, name: 'Loja', isDefault: true })
    // Linked while the plan still had the features (the API would refuse to make them now).
    const [prompt] = await harness.context.db.insert(prompts).values({ companyId, name: 'Antigo', prompt: PROMPT_TEXT, queueId: queue.id }).returning()
    const [integration] = await harness.context.db
      .insert(queueIntegrations)
      .values({ companyId, type: 'webhook', name: 'Antiga', projectName: 'Antiga', urlN8N: 'https://hooks.example.com/antiga' })
      .returning()
    await harness.context.db.update(queues).set({ promptId: prompt!.id, integrationId: integration!.id }).where(eq(queues.id, queue.id))
    await harness.context.db.update(whatsapps).set({ promptId: prompt!.id, integrationId: integration!.id }).where(eq(whatsapps.id, connection.id))

    const { page, browserContext, problems } = await openPage(harness)
    await signInTo(page, tenant.admin, '/connections')
    // The plan has loaded once its gated menu items are there (Schedules yes; Prompts and Integrations no).
    await planLoaded(page)
    expect(await menu(page).getByRole('link', { name: 'Prompts' }).count()).toBe(0)
    expect(await menu(page).getByRole('link', { name: 'Integrations' }).count()).toBe(0)

    await row(page, 'Loja').getByRole('button', { name: 'Edit Loja' }).click()
    const connectionForm = page.getByRole('dialog', { name: 'Edit WhatsApp connection' })
    await connectionForm.getByRole('tab', { name: 'Chatbot and expiry' }).click()
    await connectionForm.getByRole('textbox', { name: 'Chatbot repetitions' }).waitFor()
    expect(await connectionForm.getByText('AI prompt').count()).toBe(0)
    expect(await connectionForm.getByText('Integration', { exact: true }).count()).toBe(0)
    await connectionForm.getByRole('textbox', { name: 'Chatbot repetitions' }).fill('2')
    await connectionForm.getByRole('button', { name: 'Save', exact: true }).click()
    await connectionForm.waitFor({ state: 'detached' })
    await page.getByText('Connection saved.').waitFor()
    const [connectionRow] = await harness.context.db.select().from(whatsapps).where(eq(whatsapps.id, connection.id))
    expect(connectionRow).toMatchObject({ maxUseBotQueues: 2, promptId: prompt!.id, integrationId: integration!.id })

    await page.goto('/queues')
    await planLoaded(page)
    await row(page, 'Recepção').getByRole('button', { name: 'Edit Recepção' }).click()
    const queueForm = page.getByRole('dialog', { name: 'Edit queue' })
    await queueForm.getByRole('textbox', { name: 'Greeting message' }).fill('Bem-vindo à recepção.')
    expect(await queueForm.getByText('AI prompt').count()).toBe(0)
    expect(await queueForm.getByText('Integration', { exact: true }).count()).toBe(0)
    await queueForm.getByRole('button', { name: 'Save', exact: true }).click()
    await queueForm.waitFor({ state: 'detached' })
    const [queueRow] = await harness.context.db.select().from(queues).where(eq(queues.id, queue.id))
    expect(queueRow).toMatchObject({ greetingMessage: 'Bem-vindo à recepção.', promptId: prompt!.id, integrationId: integration!.id })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT * 2)
})
