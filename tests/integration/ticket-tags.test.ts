// A ticket's tags: PUT /api/ticket-tags/:ticketId/:tagId, DELETE /api/ticket-tags/:ticketId and
// POST /api/tags/sync, through the whole app.
import { describe, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { tickets, ticketTags, userQueues } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTag, makeTenant, makeTicket } from '../helpers/factories.ts'
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
