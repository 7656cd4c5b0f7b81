// A received media whose download failed (issue 11, item 2): the message is in the chat before its
// file; when the job gives up, the message.updated frame turns its bubble into the §8 text of
// ERR_WAPP_DOWNLOAD_MEDIA, translated (pt, en, es).
import { expect, test } from 'bun:test'
import { messages } from '../../db/schema/index.ts'
import { markInboundMediaFailed } from '../../src/modules/messages/inbound-media.ts'
import { makeCompany, makeConnection, makeContact, makeTicket, makeUser } from '../helpers/factories.ts'
import { describeInBrowser, E2E_TIMEOUT, openPage, signInThroughForm, startWebHarness, unexpectedErrors, withLiveSocket } from './support/harness.ts'

const harness = await startWebHarness()

const texts = {
  pt: 'Não foi possível baixar a mídia do WhatsApp. Verifique a página de conexões.',
  en: 'Could not download the media from WhatsApp. Check the connections page.',
  es: 'No se pudo descargar el archivo de WhatsApp. Revisa la página de conexiones.',
}

describeInBrowser('a received media that could not be downloaded', () => {
  test('the bubble shows the download error live, in pt, en and es', async () => {
    const db = harness.context.db
    const company = await makeCompany(db)
    const admin = await makeUser(db, { companyId: company.id, profile: 'admin' })
    const connection = await makeConnection(db, { companyId: company.id })
    const contact = await makeContact(db, { companyId: company.id, name: 'Mallory' })
    const ticket = await makeTicket(db, { companyId: company.id, contactId: contact.id, userId: admin.id, whatsappId: connection.id, status: 'open' })
    // As the pipeline stores it: the media type, no file yet.
    const [message] = await db
      .insert(messages)
      .values({ companyId: company.id, ticketId: ticket.id, contactId: contact.id, whatsappId: connection.id, wid: 'MEDIA-E2E-1', body: 'olha a foto', mediaType: 'image' })
      .returning()

    const { page, browserContext, problems } = await openPage(harness)
    await signInThroughForm(page, admin)
    await page.evaluate(() => localStorage.setItem('language', 'pt'))
    await withLiveSocket(page, () => page.goto(`/tickets/${ticket.uuid}`))
    const bubble = page.locator(`.chat-bubble[data-message-id="${message!.id}"]`)
    await bubble.waitFor()
    expect(await bubble.locator('.chat-media-error').count()).toBe(0)

    // The job gives up: the frame updates the open chat.
    await markInboundMediaFailed(harness.context.deps, { companyId: company.id, messageId: message!.id })
    await bubble.locator('.chat-media-error', { hasText: texts.pt }).waitFor()
    expect(await bubble.locator('.chat-send-error').count()).toBe(0)

    for (const language of ['en', 'es'] as const) {
      await page.evaluate((chosen) => localStorage.setItem('language', chosen), language)
      await page.reload()
      await page.locator(`.chat-bubble[data-message-id="${message!.id}"] .chat-media-error`, { hasText: texts[language] }).waitFor()
    }
    expect(unexpectedErrors(problems)).toEqual([])
    await browserContext.close()
  }, E2E_TIMEOUT)
})
