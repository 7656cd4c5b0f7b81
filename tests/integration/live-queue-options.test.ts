// A queue's option tree, live (README "Realtime"): every create, edit, move and delete of an option is
// an `update` of the owning queue on `company-<id>-queue` with an `options` part, heard by the whole
// company (the menus are everyone's) over a real websocket; other companies hear nothing, and a refused
// change sends nothing.
import { afterEach, describe, expect, test } from 'bun:test'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { fence, framesOf, nextOn } from '../helpers/live.ts'
import { openSocket, type TestSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()
const tenant = await makeTenant(context)
const colleague = await makeUser(context.db, { companyId: tenant.company.id, profile: 'admin' })
const colleagueToken = (await signIn(context, colleague)).token
const stranger = await makeTenant(context)
const channel = `company-${tenant.company.id}-queue`

const opened: TestSocket[] = []
afterEach(() => {
  for (const socket of opened.splice(0)) socket.close()
})

async function watchers() {
  const open = async (token: string) => {
    const socket = await openSocket(baseUrl, token)
    opened.push(socket)
    return socket
  }
  return { colleague: await open(colleagueToken), agent: await open(tenant.agentToken), stranger: await open(stranger.adminToken) }
}

/** The other company's admin heard nothing of any queue (proven by a fence). */
async function expectStrangerDeaf(socket: TestSocket) {
  await fence(context, socket, { companyId: stranger.company.id, userId: stranger.admin.id })
  expect(socket.frames.filter((frame) => frame.channel?.endsWith('-queue'))).toEqual([])
}

async function addOption(body: { queueId: number; parentId?: number; title: string; option?: string }) {
  const { status, data } = await tenant.asAdmin.api['queue-options'].post(body)
  expect(status).toBe(200)
  return data!
}

const optionsPart = (data: Record<string, unknown>) => data.options as { action: string; optionIds: number[] } | undefined

describe('option changes on the queue channel', () => {
  test('create, edit, move and delete (with its subtree) each reach the admins and agents of the company as the queue update', async () => {
    const live = await watchers()
    const queue = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Live menu' })

    const sales = await addOption({ queueId: queue.id, title: 'Sales' })
    for (const socket of [live.colleague, live.agent]) {
      const frame = await nextOn(socket, channel, (data) => optionsPart(data)?.action === 'create')
      expect(frame.data).toMatchObject({ action: 'update', queue: { id: queue.id, name: 'Live menu' }, options: { action: 'create', optionIds: [sales.id] } })
    }
    const used = await addOption({ queueId: queue.id, parentId: sales.id, title: 'Used' })
    const support = await addOption({ queueId: queue.id, title: 'Support' })

    expect((await tenant.asAdmin.api['queue-options']({ id: support.id }).put({ title: 'Help desk' })).status).toBe(200)
    const edited = await nextOn(live.agent, channel, (data) => optionsPart(data)?.action === 'update')
    expect(edited.data).toMatchObject({ action: 'update', queue: { id: queue.id }, options: { action: 'update', optionIds: [support.id] } })

    // A move (under another parent) is an update too.
    expect((await tenant.asAdmin.api['queue-options']({ id: used.id }).put({ parentId: support.id })).status).toBe(200)
    await nextOn(live.colleague, channel, (data) => optionsPart(data)?.action === 'update' && optionsPart(data)!.optionIds[0] === used.id)

    expect((await tenant.asAdmin.api['queue-options']({ id: support.id }).delete()).status).toBe(200)
    const deleted = await nextOn(live.colleague, channel, (data) => optionsPart(data)?.action === 'delete')
    expect(optionsPart(deleted.data as Record<string, unknown>)!.optionIds.sort()).toEqual([support.id, used.id].sort())

    // One frame per change: three creates, two updates, one delete.
    await fence(context, live.agent, { companyId: tenant.company.id, userId: tenant.agent.id })
    expect(framesOf(live.agent, channel).map((frame) => optionsPart(frame.data as Record<string, unknown>)!.action)).toEqual(['create', 'create', 'create', 'update', 'update', 'delete'])
    await expectStrangerDeaf(live.stranger)
  })

  test('a refused change (a number in use, an agent, another company) sends nothing', async () => {
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    const first = await addOption({ queueId: queue.id, title: 'First', option: '1' })
    const live = await watchers()

    expect((await tenant.asAdmin.api['queue-options'].post({ queueId: queue.id, title: 'Clash', option: '1' })).status).toBe(409)
    expect((await tenant.asAgent.api['queue-options']({ id: first.id }).put({ title: 'Agent edit' })).status).toBe(403)
    // Another company's admin: its queue and option ids are "not found", and nothing changes.
    expect((await stranger.asAdmin.api['queue-options']({ id: first.id }).delete()).status).toBe(404)
    expect((await stranger.asAdmin.api['queue-options'].post({ queueId: queue.id, title: 'Foreign' })).status).toBe(404)

    await fence(context, live.colleague, { companyId: tenant.company.id, userId: colleague.id })
    expect(framesOf(live.colleague, channel)).toEqual([])
    await expectStrangerDeaf(live.stranger)
  })

  test("the queues list's own listeners still get a plain queue row (the option part is extra)", async () => {
    const live = await watchers()
    const queue = await makeQueue(context.db, { companyId: tenant.company.id, name: 'Row check' })
    await addOption({ queueId: queue.id, title: 'Only' })
    const frame = await nextOn(live.agent, channel, (data) => (data.queue as { id: number }).id === queue.id)
    const shown = (await tenant.asAgent.api.queue({ id: queue.id }).get()).data!
    expect((frame.data as { queue: Record<string, unknown> }).queue).toEqual(JSON.parse(JSON.stringify(shown)))
  })
})
