// The platform's lists, live (README "Realtime"): companies and plans go to the platform super users of
// every company and to no one else; help videos go to every signed-in user of every company. Each socket
// hears them under its own company's prefix (`company-<its id>-plans`), over a real websocket.
import { afterEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { users } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeSuper, makeTenant } from '../helpers/factories.ts'
import { fence, framesOf, nextOn } from '../helpers/live.ts'
import { openSocket, type TestSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()
// Two super users in two companies: the frames cross companies for them, each under his own prefix.
const firstSuper = await makeSuper(context)
const secondSuper = await makeSuper(context)
const tenant = await makeTenant(context)

const opened: TestSocket[] = []
afterEach(() => {
  for (const socket of opened.splice(0)) socket.close()
})

async function connect(token: string): Promise<TestSocket> {
  const socket = await openSocket(baseUrl, token)
  opened.push(socket)
  return socket
}

const channelOf = (companyId: number, name: string) => `company-${companyId}-${name}`

/** Both super users, and a normal company's admin and agent, listening. */
async function watchers() {
  return {
    first: await connect(firstSuper.token),
    second: await connect(secondSuper.token),
    admin: await connect(tenant.adminToken),
    agent: await connect(tenant.agentToken),
  }
}

/** The normal company's admin and agent got no frame of this platform channel (proven by a fence each). */
async function expectNotHeardByTenant(live: Awaited<ReturnType<typeof watchers>>, name: string) {
  await fence(context, live.admin, { companyId: tenant.company.id, userId: tenant.admin.id })
  await fence(context, live.agent, { companyId: tenant.company.id, userId: tenant.agent.id })
  expect(live.admin.frames.filter((frame) => frame.channel?.endsWith(`-${name}`))).toEqual([])
  expect(live.agent.frames.filter((frame) => frame.channel?.endsWith(`-${name}`))).toEqual([])
}

const suffix = () => crypto.randomUUID().slice(0, 8)

describe('plans channel (super users only)', () => {
  test('create, update and delete reach every super user under his own prefix, and no normal admin or agent', async () => {
    const live = await watchers()
    const created = await firstSuper.client.api.plans.post({ name: `Live ${suffix()}`, users: 3, connections: 2, queues: 4, value: 49.9 })
    expect(created.status).toBe(200)
    const plan = created.data!
    const onSecond = await nextOn(live.second, channelOf(secondSuper.company.id, 'plans'), (data) => data.action === 'create')
    expect(onSecond.data).toMatchObject({ action: 'create', plan: { id: plan.id, name: plan.name, users: 3, value: 49.9 } })
    await nextOn(live.first, channelOf(firstSuper.company.id, 'plans'), (data) => data.action === 'create')

    await secondSuper.client.api.plans({ id: plan.id }).put({ users: 7 })
    const updated = await nextOn(live.first, channelOf(firstSuper.company.id, 'plans'), (data) => data.action === 'update')
    expect(updated.data).toMatchObject({ action: 'update', plan: { id: plan.id, users: 7 } })

    expect((await firstSuper.client.api.plans({ id: plan.id }).delete()).status).toBe(200)
    expect((await nextOn(live.second, channelOf(secondSuper.company.id, 'plans'), (data) => data.action === 'delete')).data).toEqual({ action: 'delete', planId: plan.id })
    await expectNotHeardByTenant(live, 'plans')
  })

  test('a refused change (a plan in use, a normal admin trying) sends nothing', async () => {
    const live = await watchers()
    expect((await firstSuper.client.api.plans({ id: tenant.plan.id }).delete()).status).toBe(409)
    expect((await tenant.asAdmin.api.plans.post({ name: `Sneaky ${suffix()}`, users: 1, connections: 1, queues: 1, value: 1 })).status).toBe(403)
    await fence(context, live.second, { companyId: secondSuper.company.id, userId: secondSuper.user.id })
    expect(framesOf(live.second, channelOf(secondSuper.company.id, 'plans'))).toEqual([])
  })
})

describe('companies channel (super users only)', () => {
  test("create, edit, renew, hours and delete reach the super users; no company's admin hears of another", async () => {
    const live = await watchers()
    const channel = channelOf(secondSuper.company.id, 'companies')
    const created = await firstSuper.client.api.companies.post({ name: `Live Co ${suffix()}`, planId: tenant.plan.id })
    expect(created.status).toBe(200)
    const company = created.data!
    expect((await nextOn(live.second, channel, (data) => data.action === 'create')).data).toMatchObject({ action: 'create', company: { id: company.id, name: company.name, plan: { id: tenant.plan.id } } })

    await firstSuper.client.api.companies({ id: company.id }).put({ phone: '11999990000' })
    expect((await nextOn(live.second, channel, (data) => data.action === 'update')).data).toMatchObject({ action: 'update', company: { id: company.id, phone: '11999990000' } })

    const renewed = await firstSuper.client.api.companies({ id: company.id }).renew.post()
    expect(renewed.status).toBe(200)
    await nextOn(live.second, channel, (data) => data.action === 'update' && (data.company as { dueDate: string | null }).dueDate === renewed.data!.dueDate)

    expect((await firstSuper.client.api.companies({ id: company.id }).delete()).status).toBe(200)
    expect((await nextOn(live.second, channel, (data) => data.action === 'delete')).data).toEqual({ action: 'delete', companyId: company.id })
    await expectNotHeardByTenant(live, 'companies')
  })

  test("a company's own change of its hours reaches the super users, not its own agent", async () => {
    const live = await watchers()
    const week = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '07:00', endTime: '12:00' }]
    expect((await tenant.asAdmin.api.companies({ id: tenant.company.id }).schedules.put({ schedules: week })).status).toBe(200)
    const frame = await nextOn(live.first, channelOf(firstSuper.company.id, 'companies'))
    expect(frame.data).toMatchObject({ action: 'update', company: { id: tenant.company.id, schedules: week } })
    await expectNotHeardByTenant(live, 'companies')
  })

  test('a public signup shows up in the super users\' list', async () => {
    const live = await watchers()
    const name = `Signed ${suffix()}`
    const signup = await context.api.api.companies.cadastro.post({ name, email: `owner-${suffix()}@example.com`, password: 'Secret-123', planId: tenant.plan.id })
    expect(signup.status).toBe(200)
    expect((await nextOn(live.first, channelOf(firstSuper.company.id, 'companies'))).data).toMatchObject({ action: 'create', company: { id: signup.data!.id, name } })
    await expectNotHeardByTenant(live, 'companies')
  })

  test('a user who loses the super flag stops hearing the platform lists', async () => {
    const demoted = await makeSuper(context)
    const socket = await connect(demoted.token)
    await firstSuper.client.api.plans.post({ name: `Before ${suffix()}`, users: 1, connections: 1, queues: 1, value: 1 })
    await nextOn(socket, channelOf(demoted.company.id, 'plans'))
    // Demoted in the database, then the realtime refresh every user change triggers: its `user` frame
    // is delivered once the hub has re-read his rights.
    await context.db.update(users).set({ super: false }).where(eq(users.id, demoted.user.id))
    context.deps.bus.emit('user.changed', { companyId: demoted.company.id, action: 'update', userId: demoted.user.id })
    await nextOn(socket, channelOf(demoted.company.id, 'user'))
    await firstSuper.client.api.plans.post({ name: `After ${suffix()}`, users: 1, connections: 1, queues: 1, value: 1 })
    await fence(context, socket, { companyId: demoted.company.id, userId: demoted.user.id })
    expect(framesOf(socket, channelOf(demoted.company.id, 'plans')).map((frame) => (frame.data as { plan: { name: string } }).plan.name)).toEqual([expect.stringMatching(/^Before /)])
  })
})

describe('helps channel (every user of every company)', () => {
  test('create, update and delete reach super users, admins and agents of every company', async () => {
    const live = await watchers()
    const created = await firstSuper.client.api.helps.post({ title: `Live help ${suffix()}`, description: 'How to', video: 'dQw4w9WgXcQ' })
    expect(created.status).toBe(200)
    const help = created.data!
    for (const [socket, companyId] of [
      [live.agent, tenant.company.id],
      [live.admin, tenant.company.id],
      [live.second, secondSuper.company.id],
    ] as const) {
      expect((await nextOn(socket, channelOf(companyId, 'helps'))).data).toMatchObject({ action: 'create', help: { id: help.id, title: help.title, video: 'dQw4w9WgXcQ' } })
    }
    await firstSuper.client.api.helps({ id: help.id }).put({ title: 'Renamed help' })
    expect((await nextOn(live.agent, channelOf(tenant.company.id, 'helps'), (data) => data.action === 'update')).data).toMatchObject({ action: 'update', help: { id: help.id, title: 'Renamed help' } })
    await firstSuper.client.api.helps({ id: help.id }).delete()
    expect((await nextOn(live.agent, channelOf(tenant.company.id, 'helps'), (data) => data.action === 'delete')).data).toEqual({ action: 'delete', helpId: help.id })
    // One frame per change, under the agent's own company only.
    expect(live.agent.frames.filter((frame) => frame.channel?.endsWith('-helps')).map((frame) => frame.channel)).toEqual(Array(3).fill(channelOf(tenant.company.id, 'helps')))
  })

  test('a normal admin cannot write helps, and nothing is said', async () => {
    const live = await watchers()
    expect((await tenant.asAdmin.api.helps.post({ title: 'Not allowed' })).status).toBe(403)
    await fence(context, live.agent, { companyId: tenant.company.id, userId: tenant.agent.id })
    expect(framesOf(live.agent, channelOf(tenant.company.id, 'helps'))).toEqual([])
  })
})
