// A team moved from Whaticket (issue 16, item 6): after `zapdesk import whaticket`, an agent signs in
// with his Whaticket password and opens a migrated ticket (in Portuguese, English and Spanish), with its history: texts, the
// quote, the photo copied from Whaticket's media folder, the tags.
import { afterAll, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { contacts, tickets } from '../../db/schema/index.ts'
import { useDatabase } from '../../cli/database.ts'
import { jsonOf, runZapdesk } from '../helpers/cli.ts'
import { testDatabaseUrl } from '../helpers/database.ts'
import { createWhaticketSource, WHATICKET_PASSWORD } from '../helpers/whaticket-source.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness()
const serverUrl = testDatabaseUrl()
// The Whaticket database lives on the test PostgreSQL server (dropped after the file).
const source = harness && serverUrl ? await createWhaticketSource(serverUrl) : undefined
afterAll(() => source?.drop())

describeInBrowser('a ticket migrated from Whaticket', () => {
  test.skipIf(!serverUrl)('the imported agent signs in with his Whaticket password and reads the ticket in each language', async () => {
    useDatabase({ db: harness.context.db, config: harness.context.deps.config })
    try {
      jsonOf(await runZapdesk('import', 'whaticket', '--from', source!.url, '--media', source!.media, '--json'))
    } finally {
      useDatabase(undefined)
    }
    const db = harness.context.db
    const [ana] = await db.select().from(contacts).where(eq(contacts.number, '5511987654321'))
    const [ticket] = await db.select().from(tickets).where(and(eq(tickets.contactId, ana!.id), eq(tickets.status, 'open')))

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, { email: 'joao@lojadaesquina.test', password: WHATICKET_PASSWORD })
    // One sign-in; the header read in each language (pt first, the Whaticket teams' own).
    const header = page.locator('.ticket-header')
    for (const [language, status, queue, connection] of [
      ['pt', 'Em atendimento', /Fila:\s*Vendas/, /Conexão:\s*Loja Principal/],
      ['en', 'In progress', /Queue:\s*Vendas/, /Connection:\s*Loja Principal/],
      ['es', 'En atención', /Cola:\s*Vendas/, /Conexión:\s*Loja Principal/],
    ] as const) {
      await page.evaluate((code) => localStorage.setItem('language', code), language)
      await withLiveSocket(page, () => page.goto(`/tickets/${ticket!.uuid}`))
      await header.getByRole('heading', { name: 'Ana Cliente' }).waitFor()
      await header.getByText(status, { exact: true }).waitFor()
      await header.getByText(queue).waitFor()
      await header.getByText(connection).waitFor()
    }
    for (const tag of ['VIP', 'Troca']) await header.locator('.ticket-chip-tag', { hasText: tag }).waitFor()

    const history = page.locator('.chat-bubble')
    for (const body of ['Olá, meu pedido chegou com defeito', 'Sinto muito! Pode mandar uma foto?', 'Vamos trocar hoje mesmo', 'Chegou, obrigada!']) {
      await history.filter({ hasText: body }).first().waitFor()
    }
    // The reply quotes the first message; the photo came from Whaticket's public/company2 folder.
    await page.locator('.chat-quote-text', { hasText: 'Olá, meu pedido chegou com defeito' }).first().waitFor()
    const photo = page.locator('img.chat-image').first()
    await photo.waitFor()
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('img.chat-image')
      return Boolean(image?.complete && image.naturalWidth === 1)
    })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)
})
