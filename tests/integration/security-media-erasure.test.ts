// Issue 11, hole 9: deleting a message for everyone, a ticket or a contact left the media file on disk,
// reachable through the signed links already handed out. Now the files go after the commit (unless
// another row still holds one) and the public route serves a path only while a live row holds it.
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { messages, quickMessages, schedules } from '../../db/schema/index.ts'
import { signMediaPath } from '../../src/core/storage/signed-url.ts'
import { emitMessageUpdated } from '../../src/modules/messages/announce.ts'
import { markRevoked } from '../../src/modules/messages/inbound-updates.ts'
import type { StoredMedia } from '../../src/core/storage/storage.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeContact, makeTenant, makeTicket } from '../helpers/factories.ts'

const context = await createTestContext()
const { storage, config } = context.deps
// A real 1x1 PNG.
const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))

type Tenant = Awaited<ReturnType<typeof makeTenant>>

function get(url: string) {
  return context.app.handle(new Request(`http://localhost${url}`))
}

const onDisk = (path: string) => existsSync(join(config.dataDir, 'media', path))

/** One of our messages with an image, as sending stores it (no WhatsApp id: nothing to revoke over there). */
async function mediaMessage(tenant: Tenant, ticketId: number, contactId: number, name: string, file?: StoredMedia) {
  const media = file ?? (await storage.save({ companyId: tenant.company.id, data: png, originalName: name, mimetype: 'image/png' }))
  const [row] = await context.db
    .insert(messages)
    .values({ companyId: tenant.company.id, ticketId, contactId, body: '', mediaType: 'image', mediaPath: media.path, mediaName: media.name, fromMe: true, read: true, ack: 1 })
    .returning()
  return { message: row!, media }
}

/** The links the API hands out for a ticket's messages, by message id. */
async function linksOf(tenant: Tenant, ticketId: number): Promise<Map<number, string | null>> {
  const page = await tenant.asAdmin.api.messages({ id: ticketId }).get({ query: {} })
  expect(page.status).toBe(200)
  return new Map(page.data!.messages.map((message) => [message.id, message.mediaUrl]))
}

/** A file of the company that no deletion here touches: a quick message's. */
async function quickMessageFile(tenant: Tenant) {
  const media = await storage.save({ companyId: tenant.company.id, data: png, originalName: 'price-list.png', mimetype: 'image/png' })
  await context.db.insert(quickMessages).values({ companyId: tenant.company.id, shortcode: `prices-${media.path.slice(-10)}`, mediaPath: media.path, mediaName: media.name })
  return { media, link: signMediaPath(config.media, media.path, { now: context.deps.now() }) }
}

async function expectGone(link: string, path: string) {
  const response = await get(link)
  expect(response.status).toBe(404)
  expect(await response.json()).toEqual({ error: 'ERR_NOT_FOUND' })
  expect(onDisk(path)).toBe(false)
}

async function expectServed(link: string, path: string) {
  const response = await get(link)
  expect(response.status).toBe(200)
  expect(new Uint8Array(await response.arrayBuffer())).toEqual(png)
  expect(onDisk(path)).toBe(true)
}

describe('deleted media is erased, and the links handed out die with the row', () => {
  test('a message deleted for everyone: its file is gone and its link answers 404; the other files still serve', async () => {
    const tenant = await makeTenant(context)
    const contact = await makeContact(context.db, { companyId: tenant.company.id })
    const ticket = await makeTicket(context.db, { companyId: tenant.company.id, contactId: contact.id, userId: tenant.admin.id, status: 'open' })
    const deleted = await mediaMessage(tenant, ticket.id, contact.id, 'photo.png')
    const kept = await mediaMessage(tenant, ticket.id, contact.id, 'other.png')
    const quick = await quickMessageFile(tenant)
    const links = await linksOf(tenant, ticket.id)
    const deletedLink = links.get(deleted.message.id)!
    await expectServed(deletedLink, deleted.media.path)

    const result = await tenant.asAdmin.api.messages({ id: deleted.message.id }).delete()
    expect(result.status).toBe(200)
    expect(result.data!).toMatchObject({ isDeleted: true, mediaUrl: null })
    await expectGone(deletedLink, deleted.media.path)
    expect((await linksOf(tenant, ticket.id)).get(deleted.message.id)).toBeNull()
    await expectServed(links.get(kept.message.id)!, kept.media.path)
    await expectServed(quick.link, quick.media.path)
  })

  test("a customer's message revoked on WhatsApp: its file goes as well (what the inbound pipeline calls)", async () => {
    const tenant = await makeTenant(context)
    const connection = await makeConnection(context.db, { companyId: tenant.company.id })
    const contact = await makeContact(context.db, { companyId: tenant.company.id })
    const ticket = await makeTicket(context.db, { companyId: tenant.company.id, contactId: contact.id, userId: tenant.admin.id, whatsappId: connection.id, status: 'open' })
    const media = await storage.save({ companyId: tenant.company.id, data: png, originalName: 'theirs.png', mimetype: 'image/png' })
    const [message] = await context.db
      .insert(messages)
      .values({ companyId: tenant.company.id, ticketId: ticket.id, contactId: contact.id, whatsappId: connection.id, wid: 'REVOKED-1', mediaType: 'image', mediaPath: media.path, mediaName: media.name })
      .returning()
    const link = (await linksOf(tenant, ticket.id)).get(message!.id)!
    await expectServed(link, media.path)

    const row = await markRevoked(context.db, { companyId: tenant.company.id, whatsappId: connection.id }, { wid: 'REVOKED-1', now: new Date() })
    await emitMessageUpdated(context.deps, tenant.company.id, row!)
    await expectGone(link, media.path)
  })

  test('a deleted ticket: its messages\' files are gone; a file a schedule still holds stays', async () => {
    const tenant = await makeTenant(context)
    const contact = await makeContact(context.db, { companyId: tenant.company.id })
    const ticket = await makeTicket(context.db, { companyId: tenant.company.id, contactId: contact.id, userId: tenant.admin.id, status: 'closed' })
    const other = await makeTicket(context.db, { companyId: tenant.company.id, userId: tenant.admin.id, status: 'open' })
    const first = await mediaMessage(tenant, ticket.id, contact.id, 'a.png')
    const second = await mediaMessage(tenant, ticket.id, contact.id, 'b.png')
    // A sent schedule's message shares the schedule's file (schedules/dispatch.ts).
    const scheduleFile = await storage.save({ companyId: tenant.company.id, data: png, originalName: 'reminder.png', mimetype: 'image/png' })
    await context.db
      .insert(schedules)
      .values({ companyId: tenant.company.id, contactId: contact.id, body: 'Reminder', sendAt: new Date(), status: 'ENVIADA', mediaPath: scheduleFile.path, mediaName: scheduleFile.name })
    const fromSchedule = await mediaMessage(tenant, ticket.id, contact.id, 'reminder.png', scheduleFile)
    const elsewhere = await mediaMessage(tenant, other.id, other.contactId, 'c.png')
    const links = await linksOf(tenant, ticket.id)
    const otherLinks = await linksOf(tenant, other.id)
    await expectServed(links.get(first.message.id)!, first.media.path)

    const result = await tenant.asAdmin.api.tickets({ id: ticket.id }).delete()
    expect(result.status).toBe(200)
    await expectGone(links.get(first.message.id)!, first.media.path)
    await expectGone(links.get(second.message.id)!, second.media.path)
    await expectServed(otherLinks.get(elsewhere.message.id)!, elsewhere.media.path)
    // The schedule still holds its image: the file stays and its link still serves.
    await expectServed(links.get(fromSchedule.message.id)!, scheduleFile.path)
  })

  test("a deleted contact: his tickets' files and his schedules' images are gone; another contact's still serve", async () => {
    const tenant = await makeTenant(context)
    const contact = await makeContact(context.db, { companyId: tenant.company.id })
    const ticket = await makeTicket(context.db, { companyId: tenant.company.id, contactId: contact.id, userId: tenant.admin.id, status: 'open' })
    const older = await makeTicket(context.db, { companyId: tenant.company.id, contactId: contact.id, userId: tenant.admin.id, status: 'closed' })
    const current = await mediaMessage(tenant, ticket.id, contact.id, 'now.png')
    const past = await mediaMessage(tenant, older.id, contact.id, 'then.png')
    const scheduleFile = await storage.save({ companyId: tenant.company.id, data: png, originalName: 'later.png', mimetype: 'image/png' })
    await context.db
      .insert(schedules)
      .values({ companyId: tenant.company.id, contactId: contact.id, body: 'Later', sendAt: new Date(Date.now() + 3_600_000), mediaPath: scheduleFile.path, mediaName: scheduleFile.name })
    const scheduleLink = signMediaPath(config.media, scheduleFile.path, { now: context.deps.now() })
    const otherTicket = await makeTicket(context.db, { companyId: tenant.company.id, userId: tenant.admin.id, status: 'open' })
    const elsewhere = await mediaMessage(tenant, otherTicket.id, otherTicket.contactId, 'theirs.png')
    const quick = await quickMessageFile(tenant)
    const links = new Map([...(await linksOf(tenant, ticket.id)), ...(await linksOf(tenant, older.id)), ...(await linksOf(tenant, otherTicket.id))])
    await expectServed(scheduleLink, scheduleFile.path)

    const result = await tenant.asAdmin.api.contacts({ id: contact.id }).delete()
    expect(result.status).toBe(200)
    await expectGone(links.get(current.message.id)!, current.media.path)
    await expectGone(links.get(past.message.id)!, past.media.path)
    await expectGone(scheduleLink, scheduleFile.path)
    await expectServed(links.get(elsewhere.message.id)!, elsewhere.media.path)
    await expectServed(quick.link, quick.media.path)
  })

  test('a signed link to a file no row holds is not served (an orphan, or a path of another company)', async () => {
    const tenant = await makeTenant(context)
    const orphan = await storage.save({ companyId: tenant.company.id, data: png, originalName: 'orphan.png', mimetype: 'image/png' })
    const response = await get(signMediaPath(config.media, orphan.path, { now: context.deps.now() }))
    expect(response.status).toBe(404)
  })
})
