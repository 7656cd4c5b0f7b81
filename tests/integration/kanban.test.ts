// GET /api/ticket/kanban: open and pending tickets with their tags, as the list shows them, behind
// the plan's useKanban.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { plans, userQueues } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTag, makeTenant, makeTicket, signIn } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

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
