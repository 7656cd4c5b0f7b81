// A ticket's tags: PUT /api/ticket-tags/:ticketId/:tagId, DELETE /api/ticket-tags/:ticketId and
// POST /api/tags/sync, through the whole app.
import { describe, expect, test } from 'bun:test'
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { queues, tickets, ticketTags, userQueues, users } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTag, makeTenant, makeTicket, makeUser } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { openSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()

async function tagIdsOf(ticketId: number) {
  const rows = await context.db.select({ tagId: ticketTags.tagId }).from(ticketTags).where(eq(ticketTags.ticketId, ticketId)).orderBy(asc(ticketTags.tagId))
  return rows.map((row) => row.tagId)
}

/** A ticket of the agent's queue, two tags, and a ticket of another queue. */
async function board() {
  const tenant = await makeTenant(context)
  const companyId = tenant.company.id
  const queue = await makeQueue(context.db, { companyId })
  const otherQueue = await makeQueue(context.db, { companyId })
  await context.db.insert(userQueues).values({ companyId, userId: tenant.agent.id, queueId: queue.id })
  const ticket = await makeTicket(context.db, { companyId, queueId: queue.id })
  const hidden = await makeTicket(context.db, { companyId, queueId: otherQueue.id })
  const doing = await makeTag(context.db, { companyId, name: 'Em andamento', kanban: 1 })
  const done = await makeTag(context.db, { companyId, name: 'Concluído', kanban: 1 })
  const other = await makeTenant(context)
  const foreignTag = await makeTag(context.db, { companyId: other.company.id })
  const foreignTicket = await makeTicket(context.db, { companyId: other.company.id })
  return { tenant, companyId, ticket, hidden, doing, done, other, foreignTag, foreignTicket }
}

describe('PUT /api/ticket-tags/:ticketId/:tagId and DELETE /api/ticket-tags/:ticketId', () => {
  test('an agent tags a ticket he sees (twice is harmless), the ticket keeps its place, and the kanban drag (remove all, add) moves it', async () => {
    const world = await board()
    const updatedAt = (await context.db.select().from(tickets).where(eq(tickets.id, world.ticket.id)))[0]!.updatedAt
    const socket = await openSocket(baseUrl, world.tenant.agentToken)
    const tagged = await world.tenant.asAgent.api['ticket-tags']({ ticketId: world.ticket.id })({ tagId: world.doing.id }).put()
    expect(tagged.status).toBe(200)
    expect(tagged.data).toMatchObject({ id: world.ticket.id, tags: [{ id: world.doing.id, name: 'Em andamento', color: world.doing.color }] })
    const frame = await socket.next((candidate) => candidate.channel === `company-${world.companyId}-ticket`)
    expect(frame.data).toMatchObject({ action: 'update', ticket: { id: world.ticket.id, tags: [{ id: world.doing.id }] } })
    expect((await world.tenant.asAgent.api['ticket-tags']({ ticketId: world.ticket.id })({ tagId: world.doing.id }).put()).status).toBe(200)
    expect(await tagIdsOf(world.ticket.id)).toEqual([world.doing.id])

    const cleared = await world.tenant.asAgent.api['ticket-tags']({ ticketId: world.ticket.id }).delete()
    expect(cleared.data!.tags).toEqual([])
    await world.tenant.asAgent.api['ticket-tags']({ ticketId: world.ticket.id })({ tagId: world.done.id }).put()
    expect(await tagIdsOf(world.ticket.id)).toEqual([world.done.id])
    expect((await context.db.select().from(tickets).where(eq(tickets.id, world.ticket.id)))[0]!.updatedAt.getTime()).toBe(updatedAt.getTime())
    socket.close()
  })

  test("another company's ticket or tag is 404 and nothing changes; a ticket he may not see is 403; bad ids 422; no token 401", async () => {
    const world = await board()
    await world.tenant.asAgent.api['ticket-tags']({ ticketId: world.ticket.id })({ tagId: world.doing.id }).put()
    const route = world.tenant.asAgent.api['ticket-tags']
    const foreignTag = await route({ ticketId: world.ticket.id })({ tagId: world.foreignTag.id }).put()
    expect(foreignTag.status).toBe(404)
    expect(errorOf(foreignTag)?.error).toBe('ERR_NO_TAG_FOUND')
    const foreignTicket = await route({ ticketId: world.foreignTicket.id })({ tagId: world.doing.id }).put()
    expect(errorOf(foreignTicket)?.error).toBe('ERR_NO_TICKET_FOUND')
    expect(errorOf(await route({ ticketId: world.foreignTicket.id }).delete())?.error).toBe('ERR_NO_TICKET_FOUND')
    expect(errorOf(await route({ ticketId: world.hidden.id })({ tagId: world.doing.id }).put())?.error).toBe('ERR_NO_PERMISSION')
    expect(errorOf(await route({ ticketId: world.hidden.id }).delete())?.error).toBe('ERR_NO_PERMISSION')
    expect(fieldsOf(await route({ ticketId: 0 })({ tagId: world.doing.id }).put())).toEqual(['ticketId'])
    expect(fieldsOf(await route({ ticketId: world.ticket.id })({ tagId: 'x' }).put())).toEqual(['tagId'])
    expect((await context.api.api['ticket-tags']({ ticketId: world.ticket.id }).delete()).status).toBe(401)
    expect(await tagIdsOf(world.ticket.id)).toEqual([world.doing.id])
    expect(await tagIdsOf(world.foreignTicket.id)).toEqual([])
    expect(await tagIdsOf(world.hidden.id)).toEqual([])
  })
})

describe('POST /api/tags/sync', () => {
  test("replaces the ticket's tags (whole tag objects accepted, duplicates folded); an empty list removes them", async () => {
    const world = await board()
    await world.tenant.asAgent.api['ticket-tags']({ ticketId: world.ticket.id })({ tagId: world.doing.id }).put()
    const synced = await world.tenant.asAgent.api.tags.sync.post({ ticketId: world.ticket.id, tags: [{ id: world.done.id, name: 'Concluído' } as { id: number }, { id: world.done.id }] })
    expect(synced.status).toBe(200)
    expect(synced.data!.tags.map((tag) => tag.id)).toEqual([world.done.id])
    const both = await world.tenant.asAgent.api.tags.sync.post({ ticketId: world.ticket.id, tags: [{ id: world.doing.id }, { id: world.done.id }] })
    expect(both.data!.tags.map((tag) => tag.name)).toEqual(['Concluído', 'Em andamento'])
    const none = await world.tenant.asAgent.api.tags.sync.post({ ticketId: world.ticket.id, tags: [] })
    expect(none.data!.tags).toEqual([])
    expect(await tagIdsOf(world.ticket.id)).toEqual([])
  })

  test("another company's tag or ticket is 404 and nothing changes; an invisible ticket 403; validation 422", async () => {
    const world = await board()
    await world.tenant.asAgent.api.tags.sync.post({ ticketId: world.ticket.id, tags: [{ id: world.doing.id }] })
    const sync = world.tenant.asAgent.api.tags.sync
    const foreignTag = await sync.post({ ticketId: world.ticket.id, tags: [{ id: world.done.id }, { id: world.foreignTag.id }] })
    expect(foreignTag.status).toBe(404)
    expect(errorOf(foreignTag)?.error).toBe('ERR_NO_TAG_FOUND')
    expect(errorOf(await sync.post({ ticketId: world.foreignTicket.id, tags: [{ id: world.doing.id }] }))?.error).toBe('ERR_NO_TICKET_FOUND')
    expect(errorOf(await world.other.asAdmin.api.tags.sync.post({ ticketId: world.ticket.id, tags: [] }))?.error).toBe('ERR_NO_TICKET_FOUND')
    expect(errorOf(await sync.post({ ticketId: world.hidden.id, tags: [{ id: world.doing.id }] }))?.error).toBe('ERR_NO_PERMISSION')
    expect(fieldsOf(await sync.post({ ticketId: world.ticket.id } as never))).toContain('tags')
    expect(fieldsOf(await sync.post({ ticketId: world.ticket.id, tags: [{ name: 'x' }] } as never))).toContain('tags.0.id')
    expect(fieldsOf(await sync.post({ ticketId: 'one', tags: [] } as never))).toContain('ticketId')
    expect(await tagIdsOf(world.ticket.id)).toEqual([world.doing.id])
    expect(await tagIdsOf(world.hidden.id)).toEqual([])
    expect((await context.api.api.tags.sync.post({ ticketId: world.ticket.id, tags: [] })).status).toBe(401)
  })
})

// The ticket list's tag filter reads copies of the ticket's status, queue, assignee and update time
// on its ticket_tags rows (migration 0024): triggers keep them, whichever path writes the ticket or the tag.
describe("ticket_tags' copies of the ticket's columns", () => {
  /** Rows whose copies differ from their ticket (none when the triggers did their work). */
  async function staleCopies(ticketIds: number[]) {
    const rows = await context.db
      .select({ ticketId: ticketTags.ticketId, tagId: ticketTags.tagId })
      .from(ticketTags)
      .innerJoin(tickets, eq(tickets.id, ticketTags.ticketId))
      .where(
        and(
          inArray(ticketTags.ticketId, ticketIds),
          sql`(${ticketTags.ticketStatus}, ${ticketTags.ticketQueueId}, ${ticketTags.ticketUserId}, ${ticketTags.ticketUpdatedAt}) is distinct from (${tickets.status}, ${tickets.queueId}, ${tickets.userId}, ${tickets.updatedAt})`,
        ),
      )
    return rows
  }

  async function copiesOf(ticketId: number) {
    return context.db
      .select({ tagId: ticketTags.tagId, status: ticketTags.ticketStatus, queueId: ticketTags.ticketQueueId, userId: ticketTags.ticketUserId })
      .from(ticketTags)
      .where(eq(ticketTags.ticketId, ticketId))
      .orderBy(asc(ticketTags.tagId))
  }

  test('tagging copies the ticket (API, sync, kanban drag, a raw insert saying otherwise); a change of status, queue, user or update time reaches every tag row', async () => {
    const world = await board()
    const { companyId, ticket } = world
    const plain = await makeTag(context.db, { companyId })
    const route = world.tenant.asAgent.api['ticket-tags']
    await route({ ticketId: ticket.id })({ tagId: plain.id }).put()
    await world.tenant.asAgent.api.tags.sync.post({ ticketId: ticket.id, tags: [{ id: plain.id }, { id: world.doing.id }] })
    await world.tenant.asAgent.api.ticket.kanban({ ticketId: ticket.id }).put({ tagId: world.done.id })
    expect(await copiesOf(ticket.id)).toEqual(
      [plain.id, world.done.id].sort((a, b) => a - b).map((tagId) => ({ tagId, status: 'pending', queueId: ticket.queueId, userId: null })),
    )
    expect(await staleCopies([ticket.id])).toEqual([])

    // Through the API: accepted by the admin (status, assignee, updated_at all change).
    const accepted = await world.tenant.asAdmin.api.tickets({ id: ticket.id }).put({ status: 'open', userId: world.tenant.admin.id })
    expect(accepted.status).toBe(200)
    expect((await copiesOf(ticket.id)).map((row) => [row.status, row.userId])).toEqual([
      ['open', world.tenant.admin.id],
      ['open', world.tenant.admin.id],
    ])
    expect(await staleCopies([ticket.id])).toEqual([])
    // Raw updates of each column, and an update that touches none of them.
    const otherQueue = await makeQueue(context.db, { companyId })
    await context.db.update(tickets).set({ queueId: otherQueue.id }).where(eq(tickets.id, ticket.id))
    await context.db.execute(sql`update tickets set status = 'closed' where id = ${ticket.id}`)
    await context.db.execute(sql`update tickets set updated_at = now() - interval '3 days' where id = ${ticket.id}`)
    await context.db.execute(sql`update tickets set unread_messages = unread_messages + 1 where id = ${ticket.id}`)
    expect((await copiesOf(ticket.id)).map((row) => [row.status, row.queueId])).toEqual([
      ['closed', otherQueue.id],
      ['closed', otherQueue.id],
    ])
    expect(await staleCopies([ticket.id])).toEqual([])
    // The foreign keys' SET NULL (queue deleted, user deleted) reach the copies too.
    const agent = await makeUser(context.db, { companyId })
    await context.db.update(tickets).set({ userId: agent.id }).where(eq(tickets.id, ticket.id))
    await context.db.delete(queues).where(eq(queues.id, otherQueue.id))
    await context.db.delete(users).where(eq(users.id, agent.id))
    expect((await copiesOf(ticket.id)).map((row) => [row.queueId, row.userId])).toEqual([
      [null, null],
      [null, null],
    ])
    expect(await staleCopies([ticket.id])).toEqual([])

    // A raw insert cannot set other copies; a ticket of another company is refused.
    const other = await makeTicket(context.db, { companyId, queueId: ticket.queueId, status: 'open' })
    await context.db.insert(ticketTags).values({ ticketId: other.id, tagId: plain.id, companyId, ticketStatus: 'closed', ticketQueueId: null, ticketUpdatedAt: new Date(0) })
    expect(await copiesOf(other.id)).toEqual([{ tagId: plain.id, status: 'open', queueId: ticket.queueId, userId: null }])
    expect(await staleCopies([other.id])).toEqual([])
    const foreign = await context.db
      .insert(ticketTags)
      .values({ ticketId: world.foreignTicket.id, tagId: plain.id, companyId })
      .then(
        () => 'inserted',
        () => 'refused',
      )
    expect(foreign).toBe('refused')
    expect(await copiesOf(world.foreignTicket.id)).toEqual([])
    // Removing tags removes their rows; adding back copies the ticket as it is now.
    await route({ ticketId: other.id }).delete()
    expect(await copiesOf(other.id)).toEqual([])
    await context.db.update(tickets).set({ status: 'pending' }).where(eq(tickets.id, other.id))
    await route({ ticketId: other.id })({ tagId: plain.id }).put()
    expect(await copiesOf(other.id)).toEqual([{ tagId: plain.id, status: 'pending', queueId: ticket.queueId, userId: null }])

    // One statement changing several tickets (the inbound batch moves every ticket it writes to) reaches
    // each ticket's rows, and only its own (migration 0027 copies once per statement).
    await context.db.execute(sql`update tickets set status = case when id = ${ticket.id} then 'open' else 'closed' end, updated_at = now() + (id % 7) * interval '1 minute' where id in (${ticket.id}, ${other.id})`)
    expect((await copiesOf(ticket.id)).map((row) => row.status)).toEqual(['open', 'open'])
    expect((await copiesOf(other.id)).map((row) => row.status)).toEqual(['closed'])
    expect(await staleCopies([ticket.id, other.id])).toEqual([])
  })

  test('the tag filter follows: a ticket leaves an agent\'s tagged list when it moves to a queue he is not in, and a status filter sees the new status', async () => {
    const world = await board()
    const { companyId, ticket, hidden } = world
    const tag = await makeTag(context.db, { companyId })
    await world.tenant.asAdmin.api['ticket-tags']({ ticketId: ticket.id })({ tagId: tag.id }).put()
    await world.tenant.asAdmin.api['ticket-tags']({ ticketId: hidden.id })({ tagId: tag.id }).put()
    const list = (who: 'asAgent' | 'asAdmin', query: Record<string, string | boolean>) =>
      world.tenant[who].api.tickets.get({ query: { tags: `[${tag.id}]`, ...query } }).then((response) => {
        expect(response.status).toBe(200)
        return { ids: response.data!.tickets.map((row) => row.id), count: response.data!.count }
      })
    expect(await list('asAgent', {})).toEqual({ ids: [ticket.id], count: 1 })
    expect(await list('asAdmin', { showAll: true, status: 'pending' })).toEqual({ ids: [hidden.id, ticket.id].sort((a, b) => b - a), count: 2 })
    await context.db.update(tickets).set({ queueId: hidden.queueId }).where(eq(tickets.id, ticket.id))
    expect(await list('asAgent', {})).toEqual({ ids: [], count: 0 })
    await context.db.update(tickets).set({ status: 'open', userId: world.tenant.agent.id }).where(eq(tickets.id, hidden.id))
    expect(await list('asAgent', {})).toEqual({ ids: [hidden.id], count: 1 })
    expect(await list('asAdmin', { showAll: true, status: 'pending' })).toEqual({ ids: [ticket.id], count: 1 })
    expect(await list('asAdmin', { showAll: true, status: 'open' })).toEqual({ ids: [hidden.id], count: 1 })
  })
})
