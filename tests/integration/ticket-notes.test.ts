import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { ticketNotes, userQueues, users } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeContact, makeQueue, makeTenant, makeTicket, makeUser, signIn } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()

async function noteRow(noteId: number) {
  const [row] = await context.db.select().from(ticketNotes).where(eq(ticketNotes.id, noteId))
  return row
}

async function notesOfContact(contactId: number) {
  return context.db.select().from(ticketNotes).where(eq(ticketNotes.contactId, contactId))
}

/**
 * A company whose agent works in queue "mine" but not in "theirs", with a contact who has a ticket
 * in each, plus a second agent of the same queue.
 */
async function makeDesk() {
  const tenant = await makeTenant(context)
  const mine = await makeQueue(context.db, { companyId: tenant.company.id })
  const theirs = await makeQueue(context.db, { companyId: tenant.company.id })
  const colleague = await makeUser(context.db, { companyId: tenant.company.id })
  await context.db.insert(userQueues).values([
    { userId: tenant.agent.id, queueId: mine.id, companyId: tenant.company.id },
    { userId: colleague.id, queueId: mine.id, companyId: tenant.company.id },
  ])
  const contact = await makeContact(context.db, { companyId: tenant.company.id })
  const visible = await makeTicket(context.db, { companyId: tenant.company.id, contactId: contact.id, queueId: mine.id, status: 'closed' })
  const hidden = await makeTicket(context.db, { companyId: tenant.company.id, contactId: contact.id, queueId: theirs.id, status: 'open' })
  const asColleague = context.as((await signIn(context, colleague)).token)
  return { ...tenant, mine, theirs, colleague, asColleague, contact, visible, hidden }
}

async function makeNote(input: { companyId: number; contactId: number; ticketId: number; userId: number | null; note?: string; createdAt?: Date }) {
  const [row] = await context.db
    .insert(ticketNotes)
    .values({ note: 'A note', ...input })
    .returning()
  return row!
}

describe('POST /api/ticket-notes', () => {
  test('an agent adds a note to a ticket he can see; the answer names its author', async () => {
    const desk = await makeDesk()
    const { status, data } = await desk.asAgent.api['ticket-notes'].post({ note: '  Prefers e-mail  ', ticketId: desk.visible.id, contactId: desk.contact.id })
    expect(status).toBe(200)
    expect(data).toMatchObject({
      note: 'Prefers e-mail',
      ticketId: desk.visible.id,
      contactId: desk.contact.id,
      userId: desk.agent.id,
      user: { id: desk.agent.id, name: desk.agent.name },
    })
    expect(await noteRow(data!.id)).toMatchObject({ companyId: desk.company.id, userId: desk.agent.id, note: 'Prefers e-mail' })
  })

  test('admins may note any ticket; agents tickets assigned to them, or pending ones without a queue when allTicket is enabled', async () => {
    const desk = await makeDesk()
    expect((await desk.asAdmin.api['ticket-notes'].post({ note: 'By admin', ticketId: desk.hidden.id, contactId: desk.contact.id })).status).toBe(200)
    const other = await makeContact(context.db, { companyId: desk.company.id })
    const assigned = await makeTicket(context.db, { companyId: desk.company.id, contactId: other.id, queueId: desk.theirs.id, userId: desk.agent.id, status: 'open' })
    expect((await desk.asAgent.api['ticket-notes'].post({ note: 'Mine', ticketId: assigned.id, contactId: other.id })).status).toBe(200)
    const third = await makeContact(context.db, { companyId: desk.company.id })
    const waiting = await makeTicket(context.db, { companyId: desk.company.id, contactId: third.id, status: 'pending' })
    const before = await desk.asAgent.api['ticket-notes'].post({ note: 'Waiting', ticketId: waiting.id, contactId: third.id })
    expect(before.status).toBe(403)
    await context.db.update(users).set({ allTicket: 'enabled' }).where(eq(users.id, desk.agent.id))
    const after = await desk.asAgent.api['ticket-notes'].post({ note: 'Waiting', ticketId: waiting.id, contactId: third.id })
    expect(after.status).toBe(200)
  })

  test('a ticket of a queue the agent is not in is 403, and nothing is stored', async () => {
    const desk = await makeDesk()
    const result = await desk.asAgent.api['ticket-notes'].post({ note: 'Sneaky', ticketId: desk.hidden.id, contactId: desk.contact.id })
    expect(result.status).toBe(403)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect(await notesOfContact(desk.contact.id)).toEqual([])
  })

  test("another contact's ticket or another company's ticket is 404 ERR_NO_TICKET_FOUND, nothing stored", async () => {
    const desk = await makeDesk()
    const other = await makeDesk()
    const stranger = await makeContact(context.db, { companyId: desk.company.id })
    const mismatch = await desk.asAdmin.api['ticket-notes'].post({ note: 'Wrong contact', ticketId: desk.visible.id, contactId: stranger.id })
    expect(mismatch.status).toBe(404)
    expect(errorOf(mismatch)).toEqual({ error: 'ERR_NO_TICKET_FOUND' })
    const foreign = await desk.asAdmin.api['ticket-notes'].post({ note: 'Foreign', ticketId: other.visible.id, contactId: other.contact.id })
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_TICKET_FOUND' })
    expect(await notesOfContact(stranger.id)).toEqual([])
    expect(await notesOfContact(other.contact.id)).toEqual([])
  })

  test('validates note (2 to 5000 after trimming), ticketId and contactId (422); needs a token', async () => {
    const desk = await makeDesk()
    const ids = { ticketId: desk.visible.id, contactId: desk.contact.id }
    const cases: [Record<string, unknown>, string][] = [
      [ids, 'note'],
      [{ ...ids, note: '' }, 'note'],
      [{ ...ids, note: 'a' }, 'note'],
      [{ ...ids, note: '  a  ' }, 'note'],
      [{ ...ids, note: 'x'.repeat(5001) }, 'note'],
      [{ note: 'Valid', contactId: desk.contact.id }, 'ticketId'],
      [{ note: 'Valid', ticketId: 0, contactId: desk.contact.id }, 'ticketId'],
      [{ note: 'Valid', ticketId: desk.visible.id }, 'contactId'],
      [{ note: 'Valid', ticketId: desk.visible.id, contactId: 'abc' }, 'contactId'],
    ]
    for (const [body, field] of cases) {
      const result = await desk.asAgent.api['ticket-notes'].post(body as never)
      expect(result.status, JSON.stringify(body).slice(0, 80)).toBe(422)
      expect(fieldsOf(result), JSON.stringify(body).slice(0, 80)).toContain(field)
    }
    expect(await notesOfContact(desk.contact.id)).toEqual([])
    expect((await context.api.api['ticket-notes'].post({ note: 'Anonymous', ...ids })).status).toBe(401)
  })
})

describe('GET /api/ticket-notes/list', () => {
  test("the contact's notes from all his tickets, newest first, with their author", async () => {
    const desk = await makeDesk()
    const otherContact = await makeContact(context.db, { companyId: desk.company.id })
    const otherTicket = await makeTicket(context.db, { companyId: desk.company.id, contactId: otherContact.id, queueId: desk.mine.id })
    const base = Date.now()
    const oldest = await makeNote({ companyId: desk.company.id, contactId: desk.contact.id, ticketId: desk.visible.id, userId: desk.admin.id, note: 'Oldest', createdAt: new Date(base - 3000) })
    const middle = await makeNote({ companyId: desk.company.id, contactId: desk.contact.id, ticketId: desk.hidden.id, userId: desk.colleague.id, note: 'From the other ticket', createdAt: new Date(base - 2000) })
    const newest = await makeNote({ companyId: desk.company.id, contactId: desk.contact.id, ticketId: desk.visible.id, userId: null, note: 'Author gone', createdAt: new Date(base - 1000) })
    await makeNote({ companyId: desk.company.id, contactId: otherContact.id, ticketId: otherTicket.id, userId: desk.agent.id, note: 'Other contact' })
    const { status, data } = await desk.asAgent.api['ticket-notes'].list.get({ query: { ticketId: desk.visible.id, contactId: desk.contact.id } })
    expect(status).toBe(200)
    expect(data!.map((note) => note.id)).toEqual([newest.id, middle.id, oldest.id])
    expect(data![0]).toMatchObject({ note: 'Author gone', userId: null, user: null })
    expect(data![1]).toMatchObject({ user: { id: desk.colleague.id, name: desk.colleague.name } })
    expect(data![2]).toMatchObject({ user: { id: desk.admin.id, name: desk.admin.name }, ticketId: desk.visible.id, contactId: desk.contact.id })
  })

  test('needs a ticket of that contact the caller can see', async () => {
    const desk = await makeDesk()
    const other = await makeDesk()
    await makeNote({ companyId: desk.company.id, contactId: desk.contact.id, ticketId: desk.visible.id, userId: desk.admin.id })
    const hidden = await desk.asAgent.api['ticket-notes'].list.get({ query: { ticketId: desk.hidden.id, contactId: desk.contact.id } })
    expect(hidden.status).toBe(403)
    expect(errorOf(hidden)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await desk.asAdmin.api['ticket-notes'].list.get({ query: { ticketId: desk.hidden.id, contactId: desk.contact.id } })).data).toHaveLength(1)
    const stranger = await makeContact(context.db, { companyId: desk.company.id })
    const mismatch = await desk.asAdmin.api['ticket-notes'].list.get({ query: { ticketId: desk.visible.id, contactId: stranger.id } })
    expect(errorOf(mismatch)).toEqual({ error: 'ERR_NO_TICKET_FOUND' })
    const foreign = await other.asAdmin.api['ticket-notes'].list.get({ query: { ticketId: desk.visible.id, contactId: desk.contact.id } })
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_TICKET_FOUND' })
    const missing = await desk.asAdmin.api['ticket-notes'].list.get({ query: { ticketId: desk.visible.id } as never })
    expect(missing.status).toBe(422)
    expect(fieldsOf(missing)).toContain('contactId')
    const bad = await desk.asAdmin.api['ticket-notes'].list.get({ query: { ticketId: 0, contactId: desk.contact.id } })
    expect(fieldsOf(bad)).toContain('ticketId')
    expect((await context.api.api['ticket-notes'].list.get({ query: { ticketId: desk.visible.id, contactId: desk.contact.id } })).status).toBe(401)
  })
})

describe('DELETE /api/ticket-notes/{id}', () => {
  test('its author removes a note', async () => {
    const desk = await makeDesk()
    const note = await makeNote({ companyId: desk.company.id, contactId: desk.contact.id, ticketId: desk.visible.id, userId: desk.agent.id })
    const { status, data } = await desk.asAgent.api['ticket-notes']({ id: note.id }).delete()
    expect(status).toBe(200)
    expect(data).toEqual({ ok: true })
    expect(await noteRow(note.id)).toBeUndefined()
    const again = await desk.asAgent.api['ticket-notes']({ id: note.id }).delete()
    expect(again.status).toBe(404)
    expect(errorOf(again)).toEqual({ error: 'ERR_NO_NOTE_FOUND' })
  })

  test("an admin removes anyone's note; another agent may not (403)", async () => {
    const desk = await makeDesk()
    const note = await makeNote({ companyId: desk.company.id, contactId: desk.contact.id, ticketId: desk.visible.id, userId: desk.agent.id })
    const colleague = await desk.asColleague.api['ticket-notes']({ id: note.id }).delete()
    expect(colleague.status).toBe(403)
    expect(errorOf(colleague)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect(await noteRow(note.id)).toBeDefined()
    expect((await desk.asAdmin.api['ticket-notes']({ id: note.id }).delete()).status).toBe(200)
    expect(await noteRow(note.id)).toBeUndefined()
  })

  test("another company's note is 404 and stays; bad id 422; no token 401", async () => {
    const desk = await makeDesk()
    const other = await makeDesk()
    const note = await makeNote({ companyId: other.company.id, contactId: other.contact.id, ticketId: other.visible.id, userId: other.agent.id })
    const foreign = await desk.asAdmin.api['ticket-notes']({ id: note.id }).delete()
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_NOTE_FOUND' })
    const bad = await desk.asAdmin.api['ticket-notes']({ id: 'abc' }).delete()
    expect(bad.status).toBe(422)
    expect((await context.api.api['ticket-notes']({ id: note.id }).delete()).status).toBe(401)
    expect(await noteRow(note.id)).toBeDefined()
  })
})
