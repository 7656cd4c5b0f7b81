// Data-subject requests (issue 11, item 14): a contact's export (zip: JSON + media), his erasure
// (rows and files), and the per-company retention of closed tickets' messages.
import { describe, expect, test } from 'bun:test'
import JSZip from 'jszip'
import { and, eq, inArray } from 'drizzle-orm'
import { contactListItems, contactLists, contacts, dataRetentionRuns, messages, schedules, ticketNotes, tickets, ticketTracking } from '../../db/schema/index.ts'
import { dataRetentionJob } from '../../jobs/data-retention.ts'
import { runDataRetention } from '../../src/modules/data-retention/service.ts'
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

    const heard: string[] = []
    const stops = [
      deps.bus.on('contact.deleted', (event) => void heard.push(`contact ${event.contactId}`)),
      deps.bus.on('ticket.deleted', (event) => void heard.push(`ticket ${event.ticket.id}`)),
    ]
    const erased = await tenant.asAdmin.api.contacts({ id: history.contact.id }).erase.delete()
    for (const stop of stops) stop()
    expect(erased.status).toBe(200)
    expect(erased.data).toEqual({ ok: true, tickets: 2, messages: 2, files: 2 })
    // Open inboxes drop him and his tickets through the usual events.
    expect(heard.sort()).toEqual([`contact ${history.contact.id}`, `ticket ${history.closed.id}`, `ticket ${history.open.id}`].sort())

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

describe('data retention', () => {
  const dayMs = 86_400_000

  /** A ticket of `company` in `status`, last updated `daysAgo`, with a text and a media message. */
  async function makeAgedTicket(company: number, status: 'open' | 'pending' | 'closed', daysAgo: number) {
    const ticket = await makeTicket(db, { companyId: company, status })
    const updatedAt = new Date(Date.now() - daysAgo * dayMs)
    const text = await makeMessage({ companyId: company, ticketId: ticket.id, contactId: ticket.contactId, body: `old ${daysAgo}`, createdAt: updatedAt })
    const photo = await makeMessage({ companyId: company, ticketId: ticket.id, contactId: ticket.contactId, body: '', media: png, createdAt: updatedAt })
    await db.update(tickets).set({ updatedAt, lastMessage: `old ${daysAgo}` }).where(eq(tickets.id, ticket.id))
    return { ticket, text, photo, updatedAt }
  }

  const messagesOf = (ticketId: number) => db.select({ id: messages.id }).from(messages).where(eq(messages.ticketId, ticketId))

  test('the setting accepts 0 to 36500 days and refuses anything else', async () => {
    for (const value of ['-1', '1.5', 'thirty', '36501']) {
      const refused = await tenant.asAdmin.api.settings({ key: 'dataRetentionDays' }).put({ value })
      expect(refused.status).toBe(422)
    }
    expect((await tenant.asAgent.api.settings({ key: 'dataRetentionDays' }).put({ value: '30' })).status).toBe(403)
    const saved = await tenant.asAdmin.api.settings({ key: 'dataRetentionDays' }).put({ value: '0' })
    expect(saved.data).toEqual({ key: 'dataRetentionDays', value: '0' })
  })

  test("erases only the old closed tickets' messages and files of that company, records a report, and is idempotent", async () => {
    const retained = await makeTenant(context)
    const keeper = await makeTenant(context)
    const oldClosed = await makeAgedTicket(retained.company.id, 'closed', 40)
    const recentClosed = await makeAgedTicket(retained.company.id, 'closed', 5)
    const oldOpen = await makeAgedTicket(retained.company.id, 'open', 40)
    const otherCompany = await makeAgedTicket(keeper.company.id, 'closed', 400)
    expect((await retained.asAdmin.api.settings({ key: 'dataRetentionDays' }).put({ value: '30' })).status).toBe(200)
    // The other company keeps forever (setting 0, the default).

    const results = await runDataRetention(deps)
    expect(results.filter((result) => result.companyId === retained.company.id)).toEqual([
      { companyId: retained.company.id, messagesErased: 2, filesRemoved: 1, filesFailed: 0, status: 'done' },
    ])
    expect(results.some((result) => result.companyId === keeper.company.id)).toBe(false)
    expect(await messagesOf(oldClosed.ticket.id)).toEqual([])
    expect(await deps.storage.read(oldClosed.photo.mediaPath!)).toBeUndefined()
    const [ticketAfter] = await db.select().from(tickets).where(eq(tickets.id, oldClosed.ticket.id))
    expect(ticketAfter).toMatchObject({ lastMessage: '', status: 'closed', updatedAt: oldClosed.updatedAt })
    for (const kept of [recentClosed, oldOpen, otherCompany]) {
      expect(await messagesOf(kept.ticket.id)).toHaveLength(2)
      expect(await deps.storage.read(kept.photo.mediaPath!)).toBeDefined()
    }

    const page = await retained.asAdmin.api['data-retention'].reports.get({ query: {} })
    expect(page.status).toBe(200)
    expect(page.data?.count).toBe(1)
    expect(page.data?.reports[0]).toMatchObject({ retentionDays: 30, messagesErased: 2, filesRemoved: 1, filesFailed: 0, status: 'done', error: null })
    expect(page.data?.reports[0]?.finishedAt).not.toBeNull()
    // Reports are the company's own, and admins only.
    expect((await keeper.asAdmin.api['data-retention'].reports.get({ query: {} })).data?.count).toBe(0)
    expect((await retained.asAgent.api['data-retention'].reports.get({ query: {} })).status).toBe(403)

    // Idempotent: the same day, the job does nothing more; a day later it finds nothing left to erase.
    expect((await runDataRetention(deps)).some((result) => result.companyId === retained.company.id)).toBe(false)
    context.setNow(() => new Date(Date.now() + dayMs + 1000))
    try {
      const nextDay = (await runDataRetention(deps)).find((result) => result.companyId === retained.company.id)
      expect(nextDay).toMatchObject({ messagesErased: 0, filesRemoved: 0, status: 'done' })
    } finally {
      context.setNow(() => new Date())
    }
    expect(await messagesOf(recentClosed.ticket.id)).toHaveLength(2)
    expect(await messagesOf(oldOpen.ticket.id)).toHaveLength(2)
    expect((await retained.asAdmin.api['data-retention'].reports.get({ query: {} })).data?.count).toBe(2)
  })

  test("keeps a file that a live row still holds (a schedule's image sent as an old closed ticket's message)", async () => {
    const retained = await makeTenant(context)
    const old = await makeAgedTicket(retained.company.id, 'closed', 40)
    // schedules/dispatch.ts sends a schedule's image as the message's file: both rows hold one path.
    await db.insert(schedules).values({ companyId: retained.company.id, contactId: old.ticket.contactId, body: 'monthly', sendAt: new Date(), status: 'ENVIADA', mediaPath: old.photo.mediaPath, mediaName: 'photo.png' })
    expect((await retained.asAdmin.api.settings({ key: 'dataRetentionDays' }).put({ value: '30' })).status).toBe(200)
    const result = (await runDataRetention(deps)).find((run) => run.companyId === retained.company.id)
    expect(result).toMatchObject({ messagesErased: 2, filesRemoved: 0, filesFailed: 0, status: 'done' })
    expect(await messagesOf(old.ticket.id)).toEqual([])
    expect(await deps.storage.read(old.photo.mediaPath!)).toBeDefined()
  })

  test('the daily job runs each company with a period once a day, however often it is checked', async () => {
    const company = await makeTenant(context)
    const aged = await makeAgedTicket(company.company.id, 'closed', 10)
    expect((await company.asAdmin.api.settings({ key: 'dataRetentionDays' }).put({ value: '7' })).status).toBe(200)
    const job = dataRetentionJob(deps)
    // Checked hourly: three checks in a row make one run.
    for (let check = 0; check < 3; check++) await job.handle({})
    const runs = await db.select().from(dataRetentionRuns).where(eq(dataRetentionRuns.companyId, company.company.id))
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ retentionDays: 7, messagesErased: 2, filesRemoved: 1, status: 'done' })
    expect(await messagesOf(aged.ticket.id)).toEqual([])
  })
})
