// GET /api/ticket/kanban: open and pending tickets with their tags, as the list shows them, behind
// the plan's useKanban; PUT /api/ticket/kanban/{ticketId}: the board's drag from one lane to another.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { plans, ticketTags, userQueues } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTag, makeTenant, makeTicket, signIn } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'
import { captureRealtime, settleRealtime } from '../helpers/fake-whatsapp.ts'

const context = await createTestContext()

const idsOf = (board: { tickets: { id: number }[] } | null | undefined) => (board?.tickets ?? []).map((ticket) => ticket.id).sort((a, b) => a - b)
const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b)

async function kanbanCompany() {
  const tenant = await makeTenant(context)
  const companyId = tenant.company.id
  const sales = await makeQueue(context.db, { companyId })
  const support = await makeQueue(context.db, { companyId })
  await context.db.insert(userQueues).values({ companyId, userId: tenant.agent.id, queueId: sales.id })
  const lane = await makeTag(context.db, { companyId, name: 'Negociação', kanban: 1 })
  const tickets = {
    salesOpen: await makeTicket(context.db, { companyId, queueId: sales.id, userId: tenant.agent.id, status: 'open', tagIds: [lane.id] }),
    salesPending: await makeTicket(context.db, { companyId, queueId: sales.id }),
    salesClosed: await makeTicket(context.db, { companyId, queueId: sales.id, status: 'closed', tagIds: [lane.id] }),
    supportPending: await makeTicket(context.db, { companyId, queueId: support.id }),
    queueless: await makeTicket(context.db, { companyId }),
  }
  return { tenant, companyId, sales, support, lane, tickets }
}

describe('GET /api/ticket/kanban', () => {
  test('open and pending tickets with their tags; agents see their queues, admins everything with showAll', async () => {
    const world = await kanbanCompany()
    const { tickets } = world
    const agent = await world.tenant.asAgent.api.ticket.kanban.get({ query: { queueIds: JSON.stringify([world.sales.id]) } })
    expect(agent.status).toBe(200)
    expect(idsOf(agent.data)).toEqual(sorted(tickets.salesOpen.id, tickets.salesPending.id))
    expect(agent.data!.hasMore).toBe(false)
    expect(agent.data!.tickets.find((ticket) => ticket.id === tickets.salesOpen.id)!.tags).toEqual([{ id: world.lane.id, name: 'Negociação', color: world.lane.color }])
    // An agent asking for everything still gets only what he may see.
    const agentAll = await world.tenant.asAgent.api.ticket.kanban.get({ query: { showAll: true } })
    expect(idsOf(agentAll.data)).toEqual(idsOf(agent.data))

    const admin = await world.tenant.asAdmin.api.ticket.kanban.get({ query: { showAll: true } })
    expect(idsOf(admin.data)).toEqual(sorted(tickets.salesOpen.id, tickets.salesPending.id, tickets.supportPending.id, tickets.queueless.id))
    const adminSupport = await world.tenant.asAdmin.api.ticket.kanban.get({ query: { showAll: true, queueIds: `[${world.support.id}]` } })
    expect(idsOf(adminSupport.data)).toEqual(sorted(tickets.supportPending.id, tickets.queueless.id))
    // Without showAll, an admin in no queue sees his own and the queue-less waiting ones.
    const adminOwn = await world.tenant.asAdmin.api.ticket.kanban.get({ query: {} })
    expect(idsOf(adminOwn.data)).toEqual([tickets.queueless.id])

    const other = await makeTenant(context)
    expect(idsOf((await other.asAdmin.api.ticket.kanban.get({ query: { showAll: true } })).data)).toEqual([])
  })

  test("403 when the company's plan lacks useKanban; 422 on bad queueIds; 401 without a token", async () => {
    const world = await kanbanCompany()
    expect(fieldsOf(await world.tenant.asAgent.api.ticket.kanban.get({ query: { queueIds: 'one' } }))).toEqual(['queueIds'])
    expect(fieldsOf(await world.tenant.asAgent.api.ticket.kanban.get({ query: { showAll: 'always' as unknown as boolean } }))).toEqual(['showAll'])
    expect((await context.api.api.ticket.kanban.get({ query: {} })).status).toBe(401)
    await context.db.update(plans).set({ useKanban: false }).where(eq(plans.id, world.tenant.plan.id))
    // The plan's features are read at each request.
    const asAdmin = context.as((await signIn(context, world.tenant.admin)).token)
    const gated = await asAdmin.api.ticket.kanban.get({ query: {} })
    expect(gated.status).toBe(403)
    expect(errorOf(gated)).toMatchObject({ error: 'ERR_NO_PERMISSION', feature: 'useKanban' })
    // The ticket list itself is not gated.
    expect((await asAdmin.api.tickets.get({ query: {} })).status).toBe(200)
  })
})

const tagIdsOf = async (ticketId: number) =>
  (await context.db.select({ tagId: ticketTags.tagId }).from(ticketTags).where(eq(ticketTags.ticketId, ticketId))).map((row) => row.tagId).sort((a, b) => a - b)

describe('PUT /api/ticket/kanban/{ticketId}', () => {
  test("moves a card: its kanban tag goes, the lane's comes, plain tags stay; one update frame to those who see it", async () => {
    const world = await kanbanCompany()
    const { companyId, tickets } = world
    const won = await makeTag(context.db, { companyId, name: 'Ganho', kanban: 1 })
    const vip = await makeTag(context.db, { companyId, name: 'VIP', kanban: 0 })
    await context.db.insert(ticketTags).values({ companyId, ticketId: tickets.salesOpen.id, tagId: vip.id })
    const frames = captureRealtime(context)
    const moved = await world.tenant.asAgent.api.ticket.kanban({ ticketId: tickets.salesOpen.id }).put({ tagId: won.id })
    expect(moved.status).toBe(200)
    expect(moved.data!.tags.map((tag) => tag.name)).toEqual(['Ganho', 'VIP'])
    expect(await tagIdsOf(tickets.salesOpen.id)).toEqual(sorted(won.id, vip.id))
    await settleRealtime(context)
    const updates = frames.on(companyId, 'ticket')
    frames.stop()
    // One frame, already in the target lane: no board shows the card passing through the empty lane.
    expect(updates).toHaveLength(1)
    expect(updates[0]!.data).toMatchObject({ action: 'update', ticket: { id: tickets.salesOpen.id, tags: [{ id: won.id }, { id: vip.id }] } })
    expect(updates[0]!.audience).toMatchObject({ kind: 'ticket', ticketId: tickets.salesOpen.id, queueId: world.sales.id })

    // Back to the lane of tickets without a kanban tag (null): the plain tag stays.
    const back = await world.tenant.asAdmin.api.ticket.kanban({ ticketId: tickets.salesOpen.id }).put({ tagId: null })
    expect(back.data!.tags.map((tag) => tag.id)).toEqual([vip.id])
    // A ticket in no lane moves into one.
    await world.tenant.asAgent.api.ticket.kanban({ ticketId: tickets.salesPending.id }).put({ tagId: world.lane.id })
    expect(await tagIdsOf(tickets.salesPending.id)).toEqual([world.lane.id])
  })

  test("agents move only their queues' tickets; other companies' tickets and tags are not found; plain tags are no lane", async () => {
    const world = await kanbanCompany()
    const { tickets } = world
    const notMine = await world.tenant.asAgent.api.ticket.kanban({ ticketId: tickets.supportPending.id }).put({ tagId: world.lane.id })
    expect(notMine.status).toBe(403)
    expect(errorOf(notMine)).toMatchObject({ error: 'ERR_NO_PERMISSION' })
    expect(await tagIdsOf(tickets.supportPending.id)).toEqual([])

    const other = await kanbanCompany()
    const foreignTicket = await world.tenant.asAdmin.api.ticket.kanban({ ticketId: other.tickets.salesOpen.id }).put({ tagId: world.lane.id })
    expect(foreignTicket.status).toBe(404)
    expect(errorOf(foreignTicket)).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' })
    const foreignTag = await world.tenant.asAdmin.api.ticket.kanban({ ticketId: tickets.salesPending.id }).put({ tagId: other.lane.id })
    expect(foreignTag.status).toBe(404)
    expect(errorOf(foreignTag)).toMatchObject({ error: 'ERR_NO_TAG_FOUND' })
    expect(await tagIdsOf(other.tickets.salesOpen.id)).toEqual([other.lane.id])

    const plain = await makeTag(context.db, { companyId: world.companyId, kanban: 0 })
    expect(fieldsOf(await world.tenant.asAdmin.api.ticket.kanban({ ticketId: tickets.salesPending.id }).put({ tagId: plain.id }))).toEqual(['tagId'])
    expect(fieldsOf(await world.tenant.asAdmin.api.ticket.kanban({ ticketId: tickets.salesPending.id }).put({ tagId: 'won' as unknown as number }))).toEqual(['tagId'])
    expect(await tagIdsOf(tickets.salesPending.id)).toEqual([])

    await context.db.update(plans).set({ useKanban: false }).where(eq(plans.id, world.tenant.plan.id))
    const gated = await world.tenant.asAdmin.api.ticket.kanban({ ticketId: tickets.salesPending.id }).put({ tagId: world.lane.id })
    expect(gated.status).toBe(403)
    expect(errorOf(gated)).toMatchObject({ error: 'ERR_NO_PERMISSION', feature: 'useKanban' })
  })
})
