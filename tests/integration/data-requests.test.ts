// Data-subject requests (issue 11, item 14): a contact's export (zip: JSON + media), his erasure
// (rows and files), and the per-company retention of closed tickets' messages.
import { describe, expect, test } from 'bun:test'
import JSZip from 'jszip'
import { and, eq, inArray } from 'drizzle-orm'
import { contactListItems, contactLists, contacts, messages, schedules, ticketNotes, tickets, ticketTracking } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeContact, makeTag, makeTenant, makeTicket } from '../helpers/factories.ts'

const context = await createTestContext()
const { db, deps } = context
const tenant = await makeTenant(context)
const other = await makeTenant(context)
const companyId = tenant.company.id

// A real 1x1 PNG.
const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))

async function makeMessage(input: { companyId: number; ticketId: number; contactId: number | null; body: string; media?: Uint8Array; createdAt?: Date }) {
  const stored = input.media ? await deps.storage.save({ companyId: input.companyId, data: input.media, originalName: 'photo.png', mimetype: 'image/png' }) : undefined
  const [message] = await db
    .insert(messages)
    .values({
      companyId: input.companyId,
      ticketId: input.ticketId,
      contactId: input.contactId,
      body: input.body,
      mediaType: stored ? 'image' : 'chat',
      mediaPath: stored?.path ?? null,
      mediaName: stored?.name ?? null,
      createdAt: input.createdAt ?? new Date(),
    })
    .returning()
  return message!
}

function request(method: string, path: string, token: string) {
  return context.app.handle(new Request(`http://localhost${path}`, { method, headers: { authorization: `Bearer ${token}` } }))
}

/** A contact with two tickets (one tagged, with a note and tracking), text and media messages, a schedule. */
async function makeHistory(company: number) {
  const contact = await makeContact(db, { companyId: company, name: 'Maria Titular', email: 'maria@example.com' })
  const tag = await makeTag(db, { companyId: company, name: `VIP ${contact.id}` })
  const closed = await makeTicket(db, { companyId: company, contactId: contact.id, status: 'closed', tagIds: [tag.id] })
  const open = await makeTicket(db, { companyId: company, contactId: contact.id, status: 'open' })
  await db.insert(ticketNotes).values({ companyId: company, contactId: contact.id, ticketId: closed.id, note: 'called back' })
  await db.insert(ticketTracking).values({ companyId: company, ticketId: closed.id, startedAt: new Date(), finishedAt: new Date() })
  const text = await makeMessage({ companyId: company, ticketId: closed.id, contactId: contact.id, body: 'olá, meu CPF é 123' })
  const photo = await makeMessage({ companyId: company, ticketId: open.id, contactId: contact.id, body: '', media: png })
  const scheduleFile = await deps.storage.save({ companyId: company, data: png, originalName: 'later.png', mimetype: 'image/png' })
  await db.insert(schedules).values({ companyId: company, contactId: contact.id, body: 'lembrete', sendAt: new Date(Date.now() + 86_400_000), mediaPath: scheduleFile.path, mediaName: 'later.png' })
  return { contact, tag, closed, open, text, photo, scheduleFile }
}

describe('GET /api/contacts/:id/data-export', () => {
  test('a zip with the JSON of the contact, his tickets and messages, and the media bytes', async () => {
    const history = await makeHistory(companyId)
    const response = await request('GET', `/api/contacts/${history.contact.id}/data-export`, tenant.adminToken)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toStartWith(`attachment; filename="contact-${history.contact.id}-`)
    const zip = await JSZip.loadAsync(await response.arrayBuffer())
    const document = JSON.parse(await zip.file('contact.json')!.async('string'))
    expect(document.contact).toMatchObject({ id: history.contact.id, name: 'Maria Titular', email: 'maria@example.com' })
    expect(document.contact.companyId).toBeUndefined()
    expect(document.tickets.map((ticket: { id: number }) => ticket.id)).toEqual([history.closed.id, history.open.id])
    expect(document.tickets[0].tags).toEqual([{ id: history.tag.id, name: history.tag.name }])
    expect(document.tickets[0].notes[0].note).toBe('called back')
    expect(document.tickets[0].tracking).toHaveLength(1)
    expect(document.schedules[0].body).toBe('lembrete')
    expect(document.messages.map((message: { id: number }) => message.id)).toEqual([history.text.id, history.photo.id])
    expect(document.messages[0]).toMatchObject({ body: 'olá, meu CPF é 123', mediaFile: null, ticketId: history.closed.id })
    const mediaFile = document.messages[1].mediaFile as string
    expect(mediaFile).toBe(`media/${history.photo.id}-photo.png`)
    expect(document.messages[1].mediaPath).toBeUndefined()
    expect(new Uint8Array(await zip.file(mediaFile)!.async('uint8array'))).toEqual(png)
  })

  test('a contact of another company is 404, an agent 403', async () => {
    const foreign = await makeContact(db, { companyId: other.company.id })
    const mine = await makeContact(db, { companyId })
    expect((await request('GET', `/api/contacts/${foreign.id}/data-export`, tenant.adminToken)).status).toBe(404)
    const forbidden = await request('GET', `/api/contacts/${mine.id}/data-export`, tenant.agentToken)
    expect(forbidden.status).toBe(403)
    expect(await forbidden.json()).toEqual({ error: 'ERR_NO_PERMISSION' })
  })
})

describe('DELETE /api/contacts/:id/erase', () => {
  test('removes the contact, tickets, messages, notes, tracking, schedules, list rows and media files; a second erase is 404', async () => {
    const history = await makeHistory(companyId)
    const [list] = await db.insert(contactLists).values({ companyId, name: 'Promo' }).returning()
    await db.insert(contactListItems).values({ companyId, contactListId: list!.id, name: 'Maria', number: history.contact.number })
    const bystander = await makeHistory(companyId)
    const photoPath = history.photo.mediaPath!
    expect(await deps.storage.read(photoPath)).toBeDefined()

    const erased = await tenant.asAdmin.api.contacts({ id: history.contact.id }).erase.delete()
    expect(erased.status).toBe(200)
    expect(erased.data).toEqual({ ok: true, tickets: 2, messages: 2, files: 2 })

    expect(await db.select().from(contacts).where(eq(contacts.id, history.contact.id))).toEqual([])
    expect(await db.select().from(tickets).where(inArray(tickets.id, [history.closed.id, history.open.id]))).toEqual([])
    expect(await db.select().from(messages).where(inArray(messages.id, [history.text.id, history.photo.id]))).toEqual([])
    expect(await db.select().from(ticketNotes).where(eq(ticketNotes.contactId, history.contact.id))).toEqual([])
    expect(await db.select().from(ticketTracking).where(eq(ticketTracking.ticketId, history.closed.id))).toEqual([])
    expect(await db.select().from(schedules).where(eq(schedules.contactId, history.contact.id))).toEqual([])
    expect(await db.select().from(contactListItems).where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.number, history.contact.number)))).toEqual([])
    expect(await deps.storage.read(photoPath)).toBeUndefined()
    expect(await deps.storage.read(history.scheduleFile.path)).toBeUndefined()
    // Someone else's history is untouched.
    expect(await deps.storage.read(bystander.photo.mediaPath!)).toBeDefined()
    expect(await db.select({ id: messages.id }).from(messages).where(eq(messages.ticketId, bystander.open.id))).toHaveLength(1)

    const again = await tenant.asAdmin.api.contacts({ id: history.contact.id }).erase.delete()
    expect(again.status).toBe(404)
    expect(again.error?.value).toEqual({ error: 'ERR_NO_CONTACT_FOUND' })
  })

  test('an agent is 403, another company\'s contact 404 and left whole', async () => {
    const mine = await makeContact(db, { companyId })
    const forbidden = await tenant.asAgent.api.contacts({ id: mine.id }).erase.delete()
    expect(forbidden.status).toBe(403)
    const foreign = await makeHistory(other.company.id)
    const crossed = await tenant.asAdmin.api.contacts({ id: foreign.contact.id }).erase.delete()
    expect(crossed.status).toBe(404)
    expect(await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.id, foreign.contact.id))).toHaveLength(1)
    expect(await deps.storage.read(foreign.photo.mediaPath!)).toBeDefined()
  })
})
