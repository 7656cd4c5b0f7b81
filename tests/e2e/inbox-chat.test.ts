// The chat of an open ticket in the browser (§2 Tickets: message list and input; §7 messages and
// realtime appMessage) on the simulated WhatsApp: a customer's message appears live, the agent replies
// with text, an image and a quote (the simulator's outbox shows what went out), deletes his own
// message, and scrolling up loads older pages while keeping the view in place.
import { expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Locator, type Page } from 'playwright-core'
import { messages, tickets, whatsapps } from '../../db/schema/index.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { makeCompany, makeUser, signIn } from '../helpers/factories.ts'
import { CHROMIUM_PATH, describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, signInTo, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

// The simulator's routes are mounted only when the flag is on when the app is created.
const harness = await startWebHarness({ config: { whatsappSimulator: true } })
if (harness) harness.context.simulator.configure({ qrDelayMs: 10, connectDelayMs: 30, ackDelayMs: 20 })
const screenshots = join(import.meta.dir, '..', '..', 'docs', 'screenshots')

// A real 1x1 PNG.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')
const SEEDED = 64
const PAGE = 20

/** A company, its admin signed in over the API, a simulated connection and an open ticket with SEEDED old messages over three days. */
async function makeConversation(companyName = 'Padaria Pão Quente') {
  const db = harness.context.db
  const company = await makeCompany(db, { name: companyName })
  const admin = await makeUser(db, { companyId: company.id, profile: 'admin', name: 'Ana Lima' })
  // The API calls go through a second admin: one user has one session, and the browser signs Ana in.
  const operator = await makeUser(db, { companyId: company.id, profile: 'admin', name: 'Operador' })
  const client = harness.context.as((await signIn(harness.context, operator)).token)
  const created = await client.api.whatsapp.post({ name: 'Loja', provider: 'simulator' })
  const whatsappId = created.data!.id
  await waitFor(async () => (await db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
  const simulator = client.api.simulator({ whatsappId })
  const customer = `55119${String(Date.now()).slice(-8)}`
  expect((await simulator.inbound.post({ from: customer, name: 'Joana Cliente', body: 'Olá, bom dia!' })).status).toBe(200)
  let ticket: typeof tickets.$inferSelect | undefined
  await waitFor(async () => {
    ;[ticket] = await db.select().from(tickets).where(eq(tickets.companyId, company.id))
    return Boolean(ticket)
  })
  await db.update(tickets).set({ status: 'open', userId: admin.id }).where(eq(tickets.id, ticket!.id))
  // History from three days ago onwards, older than the customer's first message: day separators, pages.
  const start = Date.now() - 3 * 86_400_000
  await db.insert(messages).values(
    Array.from({ length: SEEDED }, (_, index) => ({
      companyId: company.id,
      ticketId: ticket!.id,
      contactId: ticket!.contactId,
      whatsappId,
      wid: `SEED-${ticket!.id}-${index}`,
      body: `Mensagem antiga ${index + 1}`,
      fromMe: index % 3 === 0,
      read: true,
      ack: index % 3 === 0 ? 4 : 0,
      createdAt: new Date(start + index * 60 * 60_000),
    })),
  )
  return { company, admin, client, whatsappId, simulator, customer, ticket: ticket! }
}

const panel = (page: Page) => page.locator('.ticket-panel')
const bubbles = (page: Page) => panel(page).locator('.chat-bubble')
const bubbleWith = (page: Page, text: string) => panel(page).locator('.chat-bubble', { hasText: text })

async function openOptions(page: Page, bubble: Locator): Promise<void> {
  await bubble.hover()
  await bubble.locator('.chat-options').click()
}

async function outbox(conversation: Awaited<ReturnType<typeof makeConversation>>) {
  return (await conversation.simulator.outbox.get({ query: {} })).data!.messages
}

describeInBrowser('the chat of a ticket', () => {
  test('live customer message, text, image and quoted replies, delete, older pages on scroll up', async () => {
    const conversation = await makeConversation()
    const { page, browserContext, problems } = await openPage(harness, { viewport: { width: 1280, height: 800 } })
    await signInThroughForm(page, conversation.admin)
    expect((await harness.context.db.select().from(tickets).where(eq(tickets.id, conversation.ticket.id)))[0]!.unreadMessages).toBeGreaterThan(0)
    // A customer writes below while the page is open: its socket is registered first.
    await withLiveSocket(page, () => page.goto(`/tickets/${conversation.ticket.uuid}`))

    // Page 1: the newest 20, scrolled to the bottom; opening marked the ticket read.
    await bubbleWith(page, 'Olá, bom dia!').waitFor()
    expect(await bubbles(page).count()).toBe(PAGE)
    const list = panel(page).locator('.chat-messages')
    const atBottom = () => list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight < 5)
    expect(await atBottom()).toBe(true)
    await waitFor(async () => (await harness.context.db.select().from(tickets).where(eq(tickets.id, conversation.ticket.id)))[0]!.unreadMessages === 0)
    expect(await panel(page).locator('.chat-day').count()).toBeGreaterThanOrEqual(1)
    // Ours on the right with the read mark, the contact's on the left.
    const ours = bubbleWith(page, `Mensagem antiga ${SEEDED}`)
    expect(await ours.getAttribute('class')).toContain('chat-bubble-mine')
    expect(await ours.locator('.chat-ack').getAttribute('data-ack')).toBe('read')
    expect(await bubbleWith(page, `Mensagem antiga ${SEEDED - 1}`).getAttribute('class')).toContain('chat-bubble-theirs')

    // Scroll up: the next page comes in above, the view stays on the same message.
    const firstShown = `Mensagem antiga ${SEEDED - PAGE + 2}`
    await bubbleWith(page, firstShown).waitFor()
    // Where that message is on screen once the list is scrolled to the top (before the page comes in).
    const scrolledBy = await list.evaluate((element) => element.scrollTop)
    const topBefore = (await bubbleWith(page, firstShown).evaluate((element) => element.getBoundingClientRect().top)) + scrolledBy
    await list.evaluate((element) => element.scrollTo({ top: 0 }))
    await waitFor(async () => (await bubbles(page).count()) === 2 * PAGE)
    await page.waitForTimeout(100)
    const topAfter = await bubbleWith(page, firstShown).evaluate((element) => element.getBoundingClientRect().top)
    expect(Math.abs(topAfter - topBefore)).toBeLessThan(60)
    expect(await list.evaluate((element) => element.scrollTop)).toBeGreaterThan(50)
    // Up to the start: all messages, and the marker of the conversation's beginning on top. Each time
    // at the top asks for the next page, however long the one before took to come.
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && (await bubbles(page).count()) < SEEDED + 1; ) {
      await list.evaluate((element) => element.scrollTo({ top: 0 }))
      await page.waitForTimeout(300)
    }
    expect(await bubbles(page).count()).toBe(SEEDED + 1)
    await panel(page).locator('.chat-conversation-start').waitFor()
    expect(await panel(page).locator('.chat-day').count()).toBeGreaterThanOrEqual(3)
    await list.evaluate((element) => element.scrollTo({ top: element.scrollHeight }))

    // A customer writes: the message appears without a reload.
    const live = await conversation.simulator.inbound.post({ from: conversation.customer, body: 'Vocês entregam hoje?' })
    expect(live.status).toBe(200)
    await bubbleWith(page, 'Vocês entregam hoje?').waitFor()
    await waitFor(() => atBottom())
    // The agent is looking at it: it is read, not counted as unread.
    await waitFor(async () => (await harness.context.db.select().from(tickets).where(eq(tickets.id, conversation.ticket.id)))[0]!.unreadMessages === 0)

    // Reply with text (Enter sends; signed by default) and with an image.
    const input = panel(page).locator('.chat-textarea')
    await input.fill('   ')
    await input.press('Enter')
    await input.fill('Entregamos sim, até as 18h.')
    await input.press('Enter')
    await bubbleWith(page, 'Entregamos sim, até as 18h.').waitFor()
    // The bubble may come over the socket before the send's answer, which is what clears the input.
    await waitFor(async () => (await input.inputValue()) === '')
    expect(await input.inputValue()).toBe('')
    await panel(page).locator('.chat-file-input').setInputFiles({ name: 'cardapio.png', mimeType: 'image/png', buffer: png })
    await panel(page).locator('.chat-attachment', { hasText: 'cardapio.png' }).waitFor()
    await input.fill('Nosso cardápio')
    await panel(page).locator('.chat-send').click()
    await panel(page).locator('.chat-bubble img.chat-image').last().waitFor()
    await waitFor(async () => (await outbox(conversation)).length >= 2)
    const sent = await outbox(conversation)
    expect(sent[0]).toMatchObject({ to: conversation.customer, body: '*Ana Lima*:\nEntregamos sim, até as 18h.' })
    expect(sent[1]!.media).toMatchObject({ kind: 'image', mimetype: 'image/png' })
    expect(sent[1]!.media!.caption ?? sent[1]!.body).toBe('*Ana Lima*:\nNosso cardápio')
    // Whitespace alone was not sent.
    expect(sent).toHaveLength(2)

    // A quoted reply to the customer's live message carries its id.
    await openOptions(page, bubbleWith(page, 'Vocês entregam hoje?'))
    await page.locator('.chat-menu-reply').click()
    await panel(page).locator('.chat-reply-preview', { hasText: 'Vocês entregam hoje?' }).waitFor()
    await page.locator('.chat-sign-switch').click()
    expect(await page.evaluate(() => localStorage.getItem('signOption'))).toBe('false')
    await input.fill('Sim, hoje mesmo!')
    await input.press('Enter')
    const quoting = bubbleWith(page, 'Sim, hoje mesmo!')
    await quoting.locator('.chat-quote', { hasText: 'Vocês entregam hoje?' }).waitFor()
    // As above: the preview goes with the send's answer, which may come after the socket's bubble.
    await panel(page).locator('.chat-reply-preview').waitFor({ state: 'detached' })
    expect(await panel(page).locator('.chat-reply-preview').count()).toBe(0)
    await waitFor(async () => (await outbox(conversation)).length >= 3)
    const quoted = (await outbox(conversation))[2]!
    expect(quoted).toMatchObject({ body: 'Sim, hoje mesmo!', quotedId: live.data!.id })
    const [quotedRow] = await harness.context.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.companyId, conversation.company.id), eq(messages.wid, live.data!.id)))
    expect(await quoting.locator('.chat-quote').getAttribute('data-quoted-id')).toBe(String(quotedRow!.id))

    // The customer's message has no delete; our own is deleted for everyone and shown struck through.
    await openOptions(page, panel(page).locator('.chat-bubble-theirs', { hasText: 'Vocês entregam hoje?' }))
    await page.locator('.chat-menu-reply').waitFor()
    expect(await page.locator('.chat-menu-delete').count()).toBe(0)
    await page.keyboard.press('Escape')
    const mine = bubbleWith(page, 'Entregamos sim, até as 18h.')
    await openOptions(page, mine)
    await page.locator('.chat-menu-delete').click()
    await page.locator('.chat-confirm-delete').click()
    await mine.locator('del').waitFor()
    expect(await mine.getAttribute('data-deleted')).toBe('true')
    expect(await mine.locator('.chat-text').evaluate((element) => getComputedStyle(element).textDecorationLine)).toContain('line-through')
    await waitFor(async () => (await outbox(conversation))[0]!.deleted)

    mkdirSync(screenshots, { recursive: true })
    await list.evaluate((element) => element.scrollTo({ top: element.scrollHeight }))
    await page.mouse.move(0, 0)
    await page.screenshot({ path: join(screenshots, 'inbox-chat-light.png') })
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()

    // Dark theme, and the input disabled with its hint once the ticket is closed.
    const dark = await openPage(harness, { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' })
    await signInTo(dark.page, conversation.admin, `/tickets/${conversation.ticket.uuid}`)
    await bubbleWith(dark.page, 'Sim, hoje mesmo!').waitFor()
    // The '/' shortcut offers the quick messages, cut to 35 characters; Enter takes the whole text.
    const quickText = 'Entregamos em toda a cidade de segunda a sábado, das 8h às 18h.'
    expect((await conversation.client.api['quick-messages'].post({ shortcode: 'entrega', message: quickText, geral: true })).status).toBe(200)
    // One with an attachment, chosen at the end: its file goes out with its text.
    const withAttachment = await conversation.client.api['quick-messages'].post({ shortcode: 'cardapio', message: 'Segue o cardápio.', geral: true })
    expect((await conversation.client.api['quick-messages']({ id: withAttachment.data!.id })['media-upload'].post({ file: new File([png], 'cardapio.png', { type: 'image/png' }) })).status).toBe(200)
    const darkInput = panel(dark.page).locator('.chat-textarea')
    await darkInput.pressSequentially('/ent')
    const option = panel(dark.page).locator('.chat-quick-reply')
    await option.waitFor()
    const darkList = panel(dark.page).locator('.chat-messages')
    await waitFor(() => darkList.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight < 5))
    expect(await option.innerText()).toBe('/entrega - Entregamos em toda a cid…')
    await dark.page.screenshot({ path: join(screenshots, 'inbox-chat-quick-replies-dark.png') })
    await darkInput.press('Enter')
    expect(await darkInput.inputValue()).toBe(quickText)
    // The emoji picker by keyboard: arrows move in the grid, Enter inserts at the caret and closes.
    await darkInput.fill('Oi ')
    await panel(dark.page).locator('.chat-emoji-button').click()
    await dark.page.locator('.chat-emoji[tabindex="0"]').focus()
    await dark.page.keyboard.press('ArrowRight')
    await dark.page.keyboard.press('ArrowDown')
    await dark.page.keyboard.press('Enter')
    await dark.page.locator('.chat-emoji-grid').waitFor({ state: 'detached' })
    // From the first smiley, right then down a row of 8: the tenth, 😇.
    expect(await darkInput.inputValue()).toBe('Oi 😇')
    await dark.page.screenshot({ path: join(screenshots, 'inbox-chat-dark.png') })
    // A quick reply with an attachment: choosing it attaches the file, and sending sends both (it used to send the text only).
    await darkInput.fill('')
    await darkInput.pressSequentially('/card')
    await panel(dark.page).locator('.chat-quick-reply', { hasText: '/cardapio' }).waitFor()
    await darkInput.press('Enter')
    await panel(dark.page).locator('.chat-attachment', { hasText: 'cardapio.png' }).waitFor()
    expect(await darkInput.inputValue()).toBe('Segue o cardápio.')
    const sentBefore = (await outbox(conversation)).length
    await darkInput.press('Enter')
    await waitFor(async () => (await outbox(conversation)).length > sentBefore)
    const quickWithFile = (await outbox(conversation)).at(-1)!
    expect(quickWithFile.media).toMatchObject({ kind: 'image', mimetype: 'image/png' })
    expect(quickWithFile.media!.caption ?? quickWithFile.body).toContain('Segue o cardápio.')
    await harness.context.db.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, conversation.ticket.id))
    await dark.page.reload()
    await panel(dark.page).locator('.chat-input-hint').waitFor()
    expect(await panel(dark.page).locator('.chat-textarea').isDisabled()).toBe(true)
    expect(unexpectedErrors(dark.problems)).toEqual([])
    await dark.browserContext.close()
  }, E2E_TIMEOUT * 4)

  test('a voice message: recorded with a timer, encoded as MP3 and sent; cancel sends nothing', async () => {
    const conversation = await makeConversation('Padaria Pão Doce')
    // A browser of its own with chromium's fake microphone (a beep), granted without a prompt.
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
    })
    try {
      const browserContext = await browser.newContext({ baseURL: harness.baseUrl, viewport: { width: 1280, height: 800 }, permissions: ['microphone'] })
      const page = await browserContext.newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      const lazyChunks: string[] = []
      page.on('request', (request) => {
        if (/lamejs|audio-recorder/.test(request.url())) lazyChunks.push(request.url())
      })
      await signInTo(page, conversation.admin, `/tickets/${conversation.ticket.uuid}`)
      await bubbleWith(page, 'Olá, bom dia!').waitFor()
      // The encoder is not part of the page's load.
      expect(lazyChunks).toEqual([])

      await panel(page).locator('.chat-record').click()
      const recorder = panel(page).locator('.chat-recorder')
      await recorder.locator('.chat-recorder-dot[data-active]').waitFor()
      await recorder.getByRole('button').first().click()
      await panel(page).locator('.chat-textarea').waitFor()

      await panel(page).locator('.chat-record').click()
      await recorder.locator('.chat-recorder-dot[data-active]').waitFor()
      await waitFor(async () => (await recorder.locator('.chat-recorder-time').innerText()) === '00:02')
      expect(lazyChunks.some((url) => url.includes('lamejs'))).toBe(true)
      await recorder.getByRole('button').last().click()
      await panel(page).locator('.chat-bubble-mine audio.chat-audio').waitFor()
      await waitFor(async () => (await outbox(conversation)).length === 1)
      const [voice] = await outbox(conversation)
      expect(voice!.media).toMatchObject({ kind: 'audio', mimetype: 'audio/mpeg' })
      // About two seconds at 128 kbps: well over the 10000-byte floor.
      expect(voice!.media!.size).toBeGreaterThan(20_000)
      expect(errors).toEqual([])
      await browserContext.close()
    } finally {
      await browser.close()
    }
  }, E2E_TIMEOUT * 2)
})
