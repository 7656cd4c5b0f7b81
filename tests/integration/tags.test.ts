import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { tags, ticketTags } from '../../db/schema/index.ts'
import type { RealtimeMessage } from '../../src/core/realtime/bus.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeSuper, makeTag, makeTenant, makeTicket, makeUser, signIn } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()

async function tagRow(tagId: number) {
  const [row] = await context.db.select().from(tags).where(eq(tags.id, tagId))
  return row
}

async function companyTags(companyId: number) {
  return context.db.select().from(tags).where(eq(tags.companyId, companyId))
}

/** A supervisor of the tenant's company, signed in. */
async function asSupervisor(companyId: number) {
  const user = await makeUser(context.db, { companyId, profile: 'supervisor' })
  return context.as((await signIn(context, user)).token)
}

/** Realtime messages of the company's channel; `accept` skips late ones of earlier steps (Redis delivers asynchronously). */
function captureRealtime(companyId: number, accept: (data: Record<string, unknown>) => boolean = () => true) {
  const messages: RealtimeMessage[] = []
  const stop = context.deps.realtime.subscribe((message) => {
    if (message.companyId === companyId && message.channel === 'tag' && accept(message.data as Record<string, unknown>)) messages.push(message)
  })
  async function until(count: number): Promise<RealtimeMessage[]> {
    // Up to 15 s: a loaded CI machine may take more than a moment; a real miss still shows as a failure.
    for (const deadline = Date.now() + 15_000; messages.length < count && Date.now() < deadline; ) await Bun.sleep(10)
    return messages
  }
  return { messages, stop, until }
}

describe('GET /api/tags', () => {
  test('pages 20 tags by name with count, hasMore and each ticketsCount (only this company)', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const created = []
    for (let index = 1; index <= 22; index++) created.push(await makeTag(context.db, { companyId: tenant.company.id, name: `Label ${String(index).padStart(2, '0')}` }))
    await makeTag(context.db, { companyId: other.company.id, name: 'Label foreign' })
    const first = await tenant.asAgent.api.tags.get({ query: {} })
    expect(first.status).toBe(200)
    expect(first.data!.tags).toHaveLength(20)
    expect(first.data!).toMatchObject({ count: 22, hasMore: true })
    expect(first.data!.tags[0]).toMatchObject({ id: created[0]!.id, name: 'Label 01', color: '#5C59A0', kanban: 0, ticketsCount: 0 })
    const second = await tenant.asAgent.api.tags.get({ query: { pageNumber: 2 } })
    expect(second.data!.tags.map((tag) => tag.name)).toEqual(['Label 21', 'Label 22'])
    expect(second.data!.hasMore).toBe(false)
    const search = await tenant.asAgent.api.tags.get({ query: { searchParam: 'LABEL 1' } })
    expect(search.data!.count).toBe(10)
    const wildcard = await tenant.asAgent.api.tags.get({ query: { searchParam: '%' } })
    expect(wildcard.data!.tags).toEqual([])
  })

  test('ticketsCount counts the tickets carrying each tag', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const busy = await makeTag(context.db, { companyId: tenant.company.id, name: 'Busy' })
    const single = await makeTag(context.db, { companyId: tenant.company.id, name: 'Single' })
    const idle = await makeTag(context.db, { companyId: tenant.company.id, name: 'Idle' })
    await makeTicket(context.db, { companyId: tenant.company.id, tagIds: [busy.id, single.id] })
    await makeTicket(context.db, { companyId: tenant.company.id, tagIds: [busy.id] })
    await makeTicket(context.db, { companyId: tenant.company.id, status: 'closed', tagIds: [busy.id] })
    await makeTicket(context.db, { companyId: tenant.company.id })
    await makeTag(context.db, { companyId: other.company.id, name: 'Busy' })
    const { data } = await tenant.asAdmin.api.tags.get({ query: {} })
    expect(data!.tags.map((tag) => [tag.name, tag.ticketsCount])).toEqual([
      ['Busy', 3],
      ['Idle', 0],
      ['Single', 1],
    ])
    expect(data!.count).toBe(3)
    const one = await tenant.asAdmin.api.tags({ id: busy.id }).get()
    expect(one.data!.ticketsCount).toBe(3)
    expect((await tenant.asAdmin.api.tags({ id: idle.id }).get()).data!.ticketsCount).toBe(0)
  })

  test('validates the query; needs a token', async () => {
    const tenant = await makeTenant(context)
    const zero = await tenant.asAgent.api.tags.get({ query: { pageNumber: 0 } })
    expect(zero.status).toBe(422)
    expect(fieldsOf(zero)).toContain('pageNumber')
    const long = await tenant.asAgent.api.tags.get({ query: { searchParam: 'x'.repeat(201) } })
    expect(fieldsOf(long)).toContain('searchParam')
    expect((await context.api.api.tags.get({ query: {} })).status).toBe(401)
  })
})

describe('GET /api/tags/list and /api/tags/kanban', () => {
  test('list: every tag of the company, light, by name; super users may name another company', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const platform = await makeSuper(context)
    const b = await makeTag(context.db, { companyId: tenant.company.id, name: 'Bravo', kanban: 1 })
    const a = await makeTag(context.db, { companyId: tenant.company.id, name: 'Alpha' })
    const foreign = await makeTag(context.db, { companyId: other.company.id, name: 'Foreign' })
    const { status, data } = await tenant.asAgent.api.tags.list.get({ query: {} })
    expect(status).toBe(200)
    expect(data).toEqual([
      { id: a.id, name: 'Alpha', color: '#5C59A0', kanban: 0 },
      { id: b.id, name: 'Bravo', color: '#5C59A0', kanban: 1 },
    ])
    const asSuper = await platform.client.api.tags.list.get({ query: { companyId: other.company.id } })
    expect(asSuper.data!.map((tag) => tag.id)).toEqual([foreign.id])
    const refused = await tenant.asAdmin.api.tags.list.get({ query: { companyId: other.company.id } })
    expect(refused.status).toBe(403)
    expect((await context.api.api.tags.list.get({ query: {} })).status).toBe(401)
    // §7 "GET /tags with companyId": the paged list reads it the same way (a review found it ignored).
    const pageAsSuper = await platform.client.api.tags.get({ query: { companyId: other.company.id } })
    expect(pageAsSuper.data!.tags.map((tag) => tag.id)).toEqual([foreign.id])
    expect((await tenant.asAdmin.api.tags.get({ query: { companyId: other.company.id } })).status).toBe(403)
    expect((await tenant.asAgent.api.tags.get({ query: { companyId: tenant.company.id } })).data!.tags.map((tag) => tag.id)).toEqual([a.id, b.id])
  })

  test('kanban: the kanban tags by name as {lista}; needs a plan with useKanban', async () => {
    const tenant = await makeTenant(context)
    await makeTag(context.db, { companyId: tenant.company.id, name: 'Plain' })
    const done = await makeTag(context.db, { companyId: tenant.company.id, name: 'Done', kanban: 1 })
    const doing = await makeTag(context.db, { companyId: tenant.company.id, name: 'Doing', kanban: 1 })
    const { status, data } = await tenant.asAgent.api.tags.kanban.get()
    expect(status).toBe(200)
    expect(data!.lista.map((tag) => tag.id)).toEqual([doing.id, done.id])
    const withoutKanban = await makeTenant(context, { plan: { useKanban: false } })
    const gated = await withoutKanban.asAdmin.api.tags.kanban.get()
    expect(gated.status).toBe(403)
    expect(errorOf(gated)).toMatchObject({ error: 'ERR_NO_PERMISSION', feature: 'useKanban' })
    expect((await context.api.api.tags.kanban.get()).status).toBe(401)
  })
})

describe('GET /api/tags/{id}', () => {
  test("another company's tag or an unknown id is 404 ERR_NO_TAG_FOUND", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const tag = await makeTag(context.db, { companyId: other.company.id })
    const foreign = await tenant.asAdmin.api.tags({ id: tag.id }).get()
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_TAG_FOUND' })
    expect((await tenant.asAdmin.api.tags({ id: 999_999 }).get()).status).toBe(404)
    expect((await context.api.api.tags({ id: tag.id }).get()).status).toBe(401)
  })
})

describe('POST /api/tags', () => {
  test('any user creates a plain tag; admins and supervisors may make it a kanban lane', async () => {
    const tenant = await makeTenant(context)
    const supervisor = await asSupervisor(tenant.company.id)
    const realtime = captureRealtime(tenant.company.id)
    const byAgent = await tenant.asAgent.api.tags.post({ name: '  Urgent ', color: '#FF0000' })
    expect(byAgent.status).toBe(200)
    expect(byAgent.data).toMatchObject({ name: 'Urgent', color: '#FF0000', kanban: 0, ticketsCount: 0 })
    expect(await tagRow(byAgent.data!.id)).toMatchObject({ companyId: tenant.company.id, name: 'Urgent' })
    const [message] = await realtime.until(1)
    realtime.stop()
    expect(message).toMatchObject({ audience: { kind: 'company' }, data: { action: 'create', tag: { id: byAgent.data!.id } } })
    const agentLane = await tenant.asAgent.api.tags.post({ name: 'Lane by agent', kanban: 1 })
    expect(agentLane.status).toBe(403)
    expect(errorOf(agentLane)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const bySupervisor = await supervisor.api.tags.post({ name: 'In progress', kanban: 1 })
    expect(bySupervisor.data).toMatchObject({ kanban: 1, color: '#5C59A0' })
    const byAdmin = await tenant.asAdmin.api.tags.post({ name: 'Finished', kanban: 1 })
    expect(byAdmin.data!.kanban).toBe(1)
    expect((await companyTags(tenant.company.id)).map((tag) => tag.name).sort()).toEqual(['Finished', 'In progress', 'Urgent'])
  })

  test('validates name (3 to 50), colour and kanban (422, nothing stored)', async () => {
    const tenant = await makeTenant(context)
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name'],
      [{ name: 'ab' }, 'name'],
      [{ name: '  ab  ' }, 'name'],
      [{ name: 'x'.repeat(51) }, 'name'],
      [{ name: 'Valid', color: '#f' }, 'color'],
      [{ name: 'Valid', color: 'not a colour' }, 'color'],
      [{ name: 'Valid', kanban: 2 }, 'kanban'],
      [{ name: 'Valid', kanban: true }, 'kanban'],
    ]
    for (const [body, field] of cases) {
      const result = await tenant.asAdmin.api.tags.post(body as never)
      expect(result.status, JSON.stringify(body)).toBe(422)
      expect(fieldsOf(result), JSON.stringify(body)).toContain(field)
    }
    expect(await companyTags(tenant.company.id)).toEqual([])
  })

  test('a name the company already uses is 409 ERR_TAG_NAME_ALREADY_EXISTS (case-insensitive); other companies may reuse it', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    await makeTag(context.db, { companyId: tenant.company.id, name: 'Vip' })
    const result = await tenant.asAgent.api.tags.post({ name: ' VIP ' })
    expect(result.status).toBe(409)
    expect(errorOf(result)).toEqual({ error: 'ERR_TAG_NAME_ALREADY_EXISTS' })
    expect(await companyTags(tenant.company.id)).toHaveLength(1)
    expect((await other.asAgent.api.tags.post({ name: 'VIP' })).status).toBe(200)
  })

  test('needs a token', async () => {
    expect((await context.api.api.tags.post({ name: 'Anonymous' })).status).toBe(401)
  })
})

describe('PUT /api/tags/{id}', () => {
  test('admins and supervisors edit only the fields sent', async () => {
    const tenant = await makeTenant(context)
    const supervisor = await asSupervisor(tenant.company.id)
    const tag = await makeTag(context.db, { companyId: tenant.company.id, name: 'Old name', color: '#000000' })
    const realtime = captureRealtime(tenant.company.id)
    const renamed = await tenant.asAdmin.api.tags({ id: tag.id }).put({ name: 'New name' })
    expect(renamed.status).toBe(200)
    expect(renamed.data).toMatchObject({ name: 'New name', color: '#000000', kanban: 0 })
    const [message] = await realtime.until(1)
    realtime.stop()
    expect(message!.data).toMatchObject({ action: 'update', tag: { id: tag.id, name: 'New name' } })
    const lane = await supervisor.api.tags({ id: tag.id }).put({ kanban: 1, color: '#00FF00' })
    expect(lane.data).toMatchObject({ name: 'New name', color: '#00FF00', kanban: 1 })
    expect((await tenant.asAdmin.api.tags({ id: tag.id }).put({})).status).toBe(200)
    expect((await tenant.asAdmin.api.tags({ id: tag.id }).put({ name: 'new NAME' })).status).toBe(200)
    expect(await tagRow(tag.id)).toMatchObject({ name: 'new NAME', kanban: 1 })
  })

  test('validates (422) and refuses another tag\'s name (409)', async () => {
    const tenant = await makeTenant(context)
    await makeTag(context.db, { companyId: tenant.company.id, name: 'Taken' })
    const tag = await makeTag(context.db, { companyId: tenant.company.id, name: 'Mine' })
    const short = await tenant.asAdmin.api.tags({ id: tag.id }).put({ name: 'ab' })
    expect(fieldsOf(short)).toContain('name')
    const kanban = await tenant.asAdmin.api.tags({ id: tag.id }).put({ kanban: 5 as never })
    expect(fieldsOf(kanban)).toContain('kanban')
    const taken = await tenant.asAdmin.api.tags({ id: tag.id }).put({ name: 'TAKEN' })
    expect(taken.status).toBe(409)
    expect(errorOf(taken)).toEqual({ error: 'ERR_TAG_NAME_ALREADY_EXISTS' })
    expect(await tagRow(tag.id)).toMatchObject({ name: 'Mine' })
  })

  test("agents get 403; another company's tag is 404 and unchanged; no token 401", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const own = await makeTag(context.db, { companyId: tenant.company.id, name: 'Own tag' })
    const agent = await tenant.asAgent.api.tags({ id: own.id }).put({ name: 'By agent' })
    expect(agent.status).toBe(403)
    expect(errorOf(agent)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const foreignTag = await makeTag(context.db, { companyId: other.company.id, name: 'Theirs' })
    const foreign = await tenant.asAdmin.api.tags({ id: foreignTag.id }).put({ name: 'Hijacked' })
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_TAG_FOUND' })
    expect((await context.api.api.tags({ id: own.id }).put({ name: 'Anonymous' })).status).toBe(401)
    expect(await tagRow(own.id)).toMatchObject({ name: 'Own tag' })
    expect(await tagRow(foreignTag.id)).toMatchObject({ name: 'Theirs' })
  })
})

describe('DELETE /api/tags/{id}', () => {
  test('admins and supervisors remove a tag, and it leaves every ticket', async () => {
    const tenant = await makeTenant(context)
    const supervisor = await asSupervisor(tenant.company.id)
    const tag = await makeTag(context.db, { companyId: tenant.company.id })
    const kept = await makeTag(context.db, { companyId: tenant.company.id })
    const ticket = await makeTicket(context.db, { companyId: tenant.company.id, tagIds: [tag.id, kept.id] })
    const realtime = captureRealtime(tenant.company.id)
    const { status, data } = await tenant.asAdmin.api.tags({ id: tag.id }).delete()
    expect(status).toBe(200)
    expect(data).toEqual({ ok: true })
    expect(await tagRow(tag.id)).toBeUndefined()
    const links = await context.db.select().from(ticketTags).where(eq(ticketTags.ticketId, ticket.id))
    expect(links.map((link) => link.tagId)).toEqual([kept.id])
    const [message] = await realtime.until(1)
    realtime.stop()
    expect(message!.data).toEqual({ action: 'delete', tagId: tag.id })
    expect((await supervisor.api.tags({ id: kept.id }).delete()).status).toBe(200)
    const again = await tenant.asAdmin.api.tags({ id: tag.id }).delete()
    expect(again.status).toBe(404)
    expect(errorOf(again)).toEqual({ error: 'ERR_NO_TAG_FOUND' })
  })

  test("agents get 403; another company's tag is 404 and stays; no token 401", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const own = await makeTag(context.db, { companyId: tenant.company.id })
    expect((await tenant.asAgent.api.tags({ id: own.id }).delete()).status).toBe(403)
    const foreignTag = await makeTag(context.db, { companyId: other.company.id })
    const foreign = await tenant.asAdmin.api.tags({ id: foreignTag.id }).delete()
    expect(foreign.status).toBe(404)
    expect((await context.api.api.tags({ id: own.id }).delete()).status).toBe(401)
    expect(await tagRow(own.id)).toBeDefined()
    expect(await tagRow(foreignTag.id)).toBeDefined()
  })
})
