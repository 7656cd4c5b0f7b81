// The settings page, live (README "Realtime"): a setting changed by one admin, or the company's hours,
// reach the other admins of the company over a real websocket on `company-<id>-settings`; agents and
// other companies hear nothing, and a refused change sends nothing.
import { afterEach, describe, expect, test } from 'bun:test'
import { createTestContext } from '../helpers/context.ts'
import { makeSuper, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { fence, framesOf, nextOn } from '../helpers/live.ts'
import { openSocket, type TestSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()
const platform = await makeSuper(context)

const opened: TestSocket[] = []
afterEach(() => {
  for (const socket of opened.splice(0)) socket.close()
})

async function connect(token: string): Promise<TestSocket> {
  const socket = await openSocket(baseUrl, token)
  opened.push(socket)
  return socket
}

/** A company with two admins and an agent, each with an open socket; and another company's admin. */
async function watchers() {
  const tenant = await makeTenant(context)
  const colleague = await makeUser(context.db, { companyId: tenant.company.id, profile: 'admin' })
  const colleagueSession = await signIn(context, colleague)
  const stranger = await makeTenant(context)
  return {
    tenant,
    channel: `company-${tenant.company.id}-settings`,
    admin: await connect(tenant.adminToken),
    colleague: await connect(colleagueSession.token),
    colleagueUser: colleague,
    agent: await connect(tenant.agentToken),
    stranger,
    strangerAdmin: await connect(stranger.adminToken),
  }
}

/** Neither the agent nor the other company's admin got any settings frame. */
async function expectOnlyAdminsHeard(live: Awaited<ReturnType<typeof watchers>>) {
  await fence(context, live.agent, { companyId: live.tenant.company.id, userId: live.tenant.agent.id })
  await fence(context, live.strangerAdmin, { companyId: live.stranger.company.id, userId: live.stranger.admin.id })
  expect(live.agent.frames.filter((frame) => frame.channel?.endsWith('-settings'))).toEqual([])
  expect(live.strangerAdmin.frames.filter((frame) => frame.channel?.endsWith('-settings'))).toEqual([])
}

describe('settings channel', () => {
  test("an admin's setting change reaches every admin of the company, his own tab too; not agents nor other companies", async () => {
    const live = await watchers()
    const { status } = await live.tenant.asAdmin.api.settings({ key: 'userRating' }).put({ value: 'enabled' })
    expect(status).toBe(200)
    const expected = { action: 'update', setting: { key: 'userRating', value: 'enabled' } }
    expect((await nextOn(live.colleague, live.channel)).data).toEqual(expected)
    expect((await nextOn(live.admin, live.channel)).data).toEqual(expected)
    await expectOnlyAdminsHeard(live)
    // Exactly one frame per change.
    await fence(context, live.colleague, { companyId: live.tenant.company.id, userId: live.colleagueUser.id })
    expect(framesOf(live.colleague, live.channel)).toHaveLength(1)
  })

  test('the payment token, a secret, goes to the admins only, masked', async () => {
    const live = await watchers()
    await live.tenant.asAdmin.api.settings({ key: 'asaas' }).put({ value: 'aact_live_secret' })
    expect((await nextOn(live.colleague, live.channel)).data).toEqual({ action: 'update', setting: { key: 'asaas', value: '****cret' } })
    expect(JSON.stringify(live.colleague.frames)).not.toContain('aact_live_secret')
    await expectOnlyAdminsHeard(live)
    expect(JSON.stringify(live.agent.frames)).not.toContain('aact_live_secret')
  })

  test('a refused change (a value the key does not take, an agent, an unknown key) sends nothing', async () => {
    const live = await watchers()
    expect((await live.tenant.asAdmin.api.settings({ key: 'userRating' }).put({ value: 'maybe' })).status).toBe(422)
    expect((await live.tenant.asAgent.api.settings({ key: 'userRating' }).put({ value: 'enabled' })).status).toBe(403)
    expect((await live.tenant.asAdmin.api.settings({ key: 'noSuchKey' }).put({ value: 'enabled' })).status).toBe(404)
    await fence(context, live.colleague, { companyId: live.tenant.company.id, userId: live.colleagueUser.id })
    expect(framesOf(live.colleague, live.channel)).toEqual([])
  })

  test("a super user switching a company's campaigns reaches that company's admins as the campaignsEnabled setting", async () => {
    const live = await watchers()
    const { status } = await platform.client.api.companies({ id: live.tenant.company.id }).put({ campaignsEnabled: false })
    expect(status).toBe(200)
    expect((await nextOn(live.colleague, live.channel)).data).toEqual({ action: 'update', setting: { key: 'campaignsEnabled', value: 'false' } })
    await expectOnlyAdminsHeard(live)
  })

  test("the company's business hours reach its admins as {action: 'schedules'}", async () => {
    const live = await watchers()
    const week = [
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
      { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '09:30', endTime: '17:00' },
    ]
    const { status } = await live.tenant.asAdmin.api.companies({ id: live.tenant.company.id }).schedules.put({ id: live.tenant.company.id, schedules: week })
    expect(status).toBe(200)
    expect((await nextOn(live.colleague, live.channel)).data).toEqual({ action: 'schedules', schedules: week })
    await expectOnlyAdminsHeard(live)

    // Another company's admin cannot change them, and nothing is said.
    const refused = await live.stranger.asAdmin.api.companies({ id: live.tenant.company.id }).schedules.put({ schedules: [] })
    expect(refused.status).toBe(404)
    await fence(context, live.colleague, { companyId: live.tenant.company.id, userId: live.colleagueUser.id })
    expect(framesOf(live.colleague, live.channel)).toHaveLength(1)
  })
})
