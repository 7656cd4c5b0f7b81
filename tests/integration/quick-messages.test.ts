import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { quickMessages } from '../../db/schema/index.ts'
import type { RealtimeMessage } from '../../src/core/realtime/bus.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()

// A real 1x1 PNG.
const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'))

async function row(id: number) {
  const [found] = await context.db.select().from(quickMessages).where(eq(quickMessages.id, id))
  return found
}

async function companyRows(companyId: number) {
  return context.db.select().from(quickMessages).where(eq(quickMessages.companyId, companyId))
}

async function makeQuickMessage(input: { companyId: number; userId: number; shortcode: string; message?: string; geral?: boolean; status?: boolean }) {
  const [created] = await context.db
    .insert(quickMessages)
    .values({ message: `Text of ${input.shortcode}`, ...input })
    .returning()
  return created!
}

/** A tenant with a second agent, both agents signed in. */
async function makeTeam() {
  const tenant = await makeTenant(context)
  const colleague = await makeUser(context.db, { companyId: tenant.company.id })
  const asColleague = context.as((await signIn(context, colleague)).token)
  return { ...tenant, colleague, asColleague }
}

/** Realtime messages of the company's channel; `accept` skips late ones of earlier steps (Redis delivers asynchronously). */
function captureRealtime(companyId: number, accept: (data: Record<string, unknown>) => boolean = () => true) {
  const messages: RealtimeMessage[] = []
  const stop = context.deps.realtime.subscribe((message) => {
    if (message.companyId === companyId && message.channel === 'quickemessage' && accept(message.data as Record<string, unknown>)) messages.push(message)
  })
  async function until(count: number): Promise<RealtimeMessage[]> {
    // Up to 15 s: a loaded CI machine may take more than a moment; a real miss still shows as a failure.
    for (const deadline = Date.now() + 15_000; messages.length < count && Date.now() < deadline; ) await Bun.sleep(10)
    return messages
  }
  return { messages, stop, until }
}

function get(url: string) {
  return context.app.handle(new Request(`http://localhost${url}`))
}

describe('GET /api/quick-messages', () => {
  test("a user sees the company's shared ones and his own, never a colleague's personal ones", async () => {
    const team = await makeTeam()
    const other = await makeTenant(context)
    const mine = await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'mine' })
    const shared = await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'shared', geral: true })
    const theirs = await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'theirs' })
    await makeQuickMessage({ companyId: other.company.id, userId: other.agent.id, shortcode: 'foreign', geral: true })
    const { status, data } = await team.asAgent.api['quick-messages'].get({ query: { userId: team.agent.id } })
    expect(status).toBe(200)
    expect(data!.records.map((record) => record.id)).toEqual([mine.id, shared.id])
    expect(data).toMatchObject({ count: 2, hasMore: false })
    expect(data!.records[0]).toMatchObject({ shortcode: 'mine', geral: false, status: true, isMedia: false, mediaUrl: null, userId: team.agent.id })
    const colleague = await team.asColleague.api['quick-messages'].get({ query: {} })
    expect(colleague.data!.records.map((record) => record.id)).toEqual([shared.id, theirs.id])
    // Admins do not see personal ones either.
    const admin = await team.asAdmin.api['quick-messages'].get({ query: {} })
    expect(admin.data!.records.map((record) => record.id)).toEqual([shared.id])
  })

  test('pages 20 by shortcode and searches shortcode and message', async () => {
    const team = await makeTeam()
    for (let index = 1; index <= 22; index++) {
      await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: `code${String(index).padStart(2, '0')}` })
    }
    await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'zz', message: 'Our OPENING hours' })
    const first = await team.asAgent.api['quick-messages'].get({ query: {} })
    expect(first.data!.records).toHaveLength(20)
    expect(first.data!).toMatchObject({ count: 23, hasMore: true })
    const second = await team.asAgent.api['quick-messages'].get({ query: { pageNumber: 2 } })
    expect(second.data!.records.map((record) => record.shortcode)).toEqual(['code21', 'code22', 'zz'])
    const search = await team.asAgent.api['quick-messages'].get({ query: { searchParam: 'opening' } })
    expect(search.data!.records.map((record) => record.shortcode)).toEqual(['zz'])
    const byCode = await team.asAgent.api['quick-messages'].get({ query: { searchParam: 'CODE1' } })
    expect(byCode.data!.count).toBe(10)
  })

  test("asking for another user's messages is 403; bad query 422; no token 401", async () => {
    const team = await makeTeam()
    const foreign = await team.asAdmin.api['quick-messages'].get({ query: { userId: team.agent.id } })
    expect(foreign.status).toBe(403)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const bad = await team.asAgent.api['quick-messages'].get({ query: { pageNumber: 0 } })
    expect(bad.status).toBe(422)
    expect(fieldsOf(bad)).toContain('pageNumber')
    expect((await context.api.api['quick-messages'].get({ query: {} })).status).toBe(401)
  })
})

describe('GET /api/quick-messages/list', () => {
  test('the active ones the user may use, with a signed media link', async () => {
    const team = await makeTeam()
    const shared = await makeQuickMessage({ companyId: team.company.id, userId: team.admin.id, shortcode: 'hello', geral: true })
    const mine = await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'bye' })
    await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'inactive', status: false })
    await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'theirs' })
    const upload = await team.asAgent.api['quick-messages']({ id: mine.id })['media-upload'].post({ file: new File([png], 'my photo.png', { type: 'image/png' }) })
    expect(upload.status).toBe(200)
    const { status, data } = await team.asAgent.api['quick-messages'].list.get({ query: { companyId: team.company.id, userId: team.agent.id } })
    expect(status).toBe(200)
    expect(data!.map((record) => record.id)).toEqual([mine.id, shared.id])
    expect(data![0]).toMatchObject({ shortcode: 'bye', isMedia: true, mediaName: 'my_photo.png' })
    const served = await get(data![0]!.mediaUrl!)
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png)
  })

  test("another company or user is 403; no token 401", async () => {
    const team = await makeTeam()
    const other = await makeTenant(context)
    expect((await team.asAgent.api['quick-messages'].list.get({ query: { companyId: other.company.id } })).status).toBe(403)
    expect((await team.asAgent.api['quick-messages'].list.get({ query: { userId: team.colleague.id } })).status).toBe(403)
    expect((await context.api.api['quick-messages'].list.get({ query: {} })).status).toBe(401)
  })
})

describe('GET /api/quick-messages/{id}', () => {
  test("own and shared ones are found; a colleague's personal one or another company's is 404", async () => {
    const team = await makeTeam()
    const other = await makeTenant(context)
    const mine = await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'mine' })
    const shared = await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'shared', geral: true })
    const theirs = await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'theirs' })
    const foreign = await makeQuickMessage({ companyId: other.company.id, userId: other.agent.id, shortcode: 'foreign', geral: true })
    expect((await team.asAgent.api['quick-messages']({ id: mine.id }).get()).data).toMatchObject({ id: mine.id, shortcode: 'mine' })
    expect((await team.asAgent.api['quick-messages']({ id: shared.id }).get()).status).toBe(200)
    for (const id of [theirs.id, foreign.id]) {
      const result = await team.asAgent.api['quick-messages']({ id }).get()
      expect(result.status).toBe(404)
      expect(errorOf(result)).toEqual({ error: 'ERR_NO_QUICK_MESSAGE_FOUND' })
    }
    expect((await context.api.api['quick-messages']({ id: mine.id }).get()).status).toBe(401)
  })
})

describe('POST /api/quick-messages', () => {
  test('creates a personal one by default (geral false, status true); personal ones reach only their owner', async () => {
    const team = await makeTeam()
    const realtime = captureRealtime(team.company.id)
    const { status, data } = await team.asAgent.api['quick-messages'].post({ shortcode: '  hello ', message: 'Hello {{name}}!' })
    expect(status).toBe(200)
    expect(data).toMatchObject({ shortcode: 'hello', message: 'Hello {{name}}!', geral: false, status: true, userId: team.agent.id, isMedia: false })
    expect(await row(data!.id)).toMatchObject({ companyId: team.company.id, userId: team.agent.id })
    const shared = await team.asAgent.api['quick-messages'].post({ shortcode: 'welcome', geral: true, status: false })
    expect(shared.data).toMatchObject({ geral: true, status: false, message: '' })
    const messages = await realtime.until(2)
    realtime.stop()
    expect(messages[0]).toMatchObject({ audience: { kind: 'user', userId: team.agent.id }, data: { action: 'create', record: { id: data!.id } } })
    expect(messages[1]).toMatchObject({ audience: { kind: 'company' }, data: { action: 'create', record: { id: shared.data!.id } } })
  })

  test('a shortcode must not clash with what the user can see (409); others may reuse a personal one', async () => {
    const team = await makeTeam()
    const other = await makeTenant(context)
    await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'mine' })
    await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'shared', geral: true })
    await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'theirs' })
    const before = await companyRows(team.company.id)
    for (const body of [{ shortcode: 'MINE' }, { shortcode: 'Shared' }, { shortcode: 'shared', geral: true }, { shortcode: 'theirs', geral: true }]) {
      const result = await team.asAgent.api['quick-messages'].post(body)
      expect(result.status, JSON.stringify(body)).toBe(409)
      expect(errorOf(result)).toEqual({ error: 'ERR_QUICK_MESSAGE_ALREADY_EXISTS' })
    }
    expect(await companyRows(team.company.id)).toHaveLength(before.length)
    // A colleague's personal shortcode is free for my own personal use, and for another company.
    expect((await team.asAgent.api['quick-messages'].post({ shortcode: 'theirs' })).status).toBe(200)
    expect((await other.asAgent.api['quick-messages'].post({ shortcode: 'shared', geral: true })).status).toBe(200)
  })

  test('validates shortcode, message, geral and status (422, nothing stored); needs a token', async () => {
    const team = await makeTeam()
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'shortcode'],
      [{ shortcode: '' }, 'shortcode'],
      [{ shortcode: '   ' }, 'shortcode'],
      [{ shortcode: 'x'.repeat(51) }, 'shortcode'],
      [{ shortcode: 'ok', message: 'x'.repeat(5001) }, 'message'],
      [{ shortcode: 'ok', geral: 'yes' }, 'geral'],
      [{ shortcode: 'ok', status: 3 }, 'status'],
    ]
    for (const [body, field] of cases) {
      const result = await team.asAgent.api['quick-messages'].post(body as never)
      expect(result.status, JSON.stringify(body)).toBe(422)
      expect(fieldsOf(result), JSON.stringify(body)).toContain(field)
    }
    expect(await companyRows(team.company.id)).toEqual([])
    expect((await context.api.api['quick-messages'].post({ shortcode: 'anonymous' })).status).toBe(401)
  })
})

describe('PUT /api/quick-messages/{id}', () => {
  test('the owner edits his own; admins edit shared ones; only the fields sent change', async () => {
    const team = await makeTeam()
    const mine = await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'mine', message: 'Old' })
    const shared = await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'shared', geral: true })
    const own = await team.asAgent.api['quick-messages']({ id: mine.id }).put({ message: 'New text', status: false })
    expect(own.status).toBe(200)
    expect(own.data).toMatchObject({ shortcode: 'mine', message: 'New text', status: false, geral: false })
    const byAdmin = await team.asAdmin.api['quick-messages']({ id: shared.id }).put({ shortcode: 'shared2' })
    expect(byAdmin.data).toMatchObject({ shortcode: 'shared2', userId: team.agent.id })
    expect((await team.asAgent.api['quick-messages']({ id: mine.id }).put({})).status).toBe(200)
    expect((await team.asAgent.api['quick-messages']({ id: mine.id }).put({ shortcode: 'MINE' })).status).toBe(200)
  })

  test("a colleague's shared one is 403 for agents; a colleague's personal one 404; another company's 404; nothing changes", async () => {
    const team = await makeTeam()
    const other = await makeTenant(context)
    const shared = await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'shared', geral: true })
    const theirs = await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'theirs' })
    const foreign = await makeQuickMessage({ companyId: other.company.id, userId: other.agent.id, shortcode: 'foreign', geral: true })
    const forbidden = await team.asAgent.api['quick-messages']({ id: shared.id }).put({ message: 'Changed' })
    expect(forbidden.status).toBe(403)
    expect(errorOf(forbidden)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const hidden = await team.asAdmin.api['quick-messages']({ id: theirs.id }).put({ message: 'Changed' })
    expect(hidden.status).toBe(404)
    const foreignResult = await team.asAdmin.api['quick-messages']({ id: foreign.id }).put({ message: 'Changed' })
    expect(foreignResult.status).toBe(404)
    expect(errorOf(foreignResult)).toEqual({ error: 'ERR_NO_QUICK_MESSAGE_FOUND' })
    for (const id of [shared.id, theirs.id, foreign.id]) expect((await row(id))!.message).toStartWith('Text of')
    expect((await context.api.api['quick-messages']({ id: shared.id }).put({ message: 'x' })).status).toBe(401)
  })

  test('a clashing shortcode is 409; making a personal one shared checks the whole company', async () => {
    const team = await makeTeam()
    const mine = await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'mine' })
    await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'other' })
    await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'mine' })
    const clash = await team.asAgent.api['quick-messages']({ id: mine.id }).put({ shortcode: 'OTHER' })
    expect(clash.status).toBe(409)
    const share = await team.asAgent.api['quick-messages']({ id: mine.id }).put({ geral: true })
    expect(share.status).toBe(409)
    expect(errorOf(share)).toEqual({ error: 'ERR_QUICK_MESSAGE_ALREADY_EXISTS' })
    expect(await row(mine.id)).toMatchObject({ shortcode: 'mine', geral: false })
    const bad = await team.asAgent.api['quick-messages']({ id: mine.id }).put({ shortcode: ' ' })
    expect(fieldsOf(bad)).toContain('shortcode')
  })

  test('a shared one made personal is withdrawn from the company, then updated for its owner', async () => {
    const team = await makeTeam()
    const shared = await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'shared', geral: true })
    const realtime = captureRealtime(team.company.id)
    const result = await team.asAgent.api['quick-messages']({ id: shared.id }).put({ geral: false })
    expect(result.data!.geral).toBe(false)
    const messages = await realtime.until(2)
    realtime.stop()
    expect(messages.map((message) => message.audience)).toEqual([{ kind: 'company' }, { kind: 'user', userId: team.agent.id }])
    expect(messages[0]!.data).toEqual({ action: 'delete', id: shared.id })
    expect(messages[1]!.data).toMatchObject({ action: 'update', record: { id: shared.id, geral: false, shortcode: 'shared' } })
    expect((await team.asColleague.api['quick-messages']({ id: shared.id }).get()).status).toBe(404)
  })
})

describe('DELETE /api/quick-messages/{id}', () => {
  test('the owner removes his own, with its attachment; admins remove shared ones', async () => {
    const team = await makeTeam()
    const mine = await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'mine' })
    const shared = await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'shared', geral: true })
    const upload = await team.asAgent.api['quick-messages']({ id: mine.id })['media-upload'].post({ file: new File([png], 'a.png', { type: 'image/png' }) })
    const path = upload.data!.mediaPath!
    expect(await context.deps.storage.read(path)).toBeDefined()
    const realtime = captureRealtime(team.company.id, (data) => data.action === 'delete')
    const { status, data } = await team.asAgent.api['quick-messages']({ id: mine.id }).delete()
    expect(status).toBe(200)
    expect(data).toEqual({ ok: true })
    expect(await row(mine.id)).toBeUndefined()
    expect(await context.deps.storage.read(path)).toBeUndefined()
    const [message] = await realtime.until(1)
    realtime.stop()
    expect(message).toMatchObject({ audience: { kind: 'user', userId: team.agent.id }, data: { action: 'delete', id: mine.id } })
    expect((await team.asAdmin.api['quick-messages']({ id: shared.id }).delete()).status).toBe(200)
    expect(await row(shared.id)).toBeUndefined()
  })

  test("a colleague's shared one is 403 for agents; personal 404; another company's 404; nothing removed", async () => {
    const team = await makeTeam()
    const other = await makeTenant(context)
    const shared = await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'shared', geral: true })
    const theirs = await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'theirs' })
    const foreign = await makeQuickMessage({ companyId: other.company.id, userId: other.agent.id, shortcode: 'foreign', geral: true })
    expect((await team.asAgent.api['quick-messages']({ id: shared.id }).delete()).status).toBe(403)
    expect((await team.asAgent.api['quick-messages']({ id: theirs.id }).delete()).status).toBe(404)
    expect((await team.asAdmin.api['quick-messages']({ id: foreign.id }).delete()).status).toBe(404)
    expect((await context.api.api['quick-messages']({ id: shared.id }).delete()).status).toBe(401)
    for (const id of [shared.id, theirs.id, foreign.id]) expect(await row(id)).toBeDefined()
  })
})

describe('media upload', () => {
  test('stores the file (spaces become underscores), replaces a previous one, and removes it on request', async () => {
    const team = await makeTeam()
    const mine = await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'mine' })
    const first = await team.asAgent.api['quick-messages']({ id: mine.id })['media-upload'].post({
      file: new File([png], 'price list.png', { type: 'image/png' }),
      typeArch: 'quickMessage',
    })
    expect(first.status).toBe(200)
    expect(first.data).toMatchObject({ isMedia: true, mediaName: 'price_list.png' })
    expect(first.data!.mediaPath).toStartWith(`${team.company.id}/`)
    expect(first.data!.mediaUrl).toStartWith('/public/')
    expect(await row(mine.id)).toMatchObject({ mediaName: 'price_list.png', mediaPath: first.data!.mediaPath })
    const second = await team.asAgent.api['quick-messages']({ id: mine.id })['media-upload'].post({ file: new File(['hello'], 'notes.txt', { type: 'text/plain' }) })
    expect(second.data).toMatchObject({ mediaName: 'notes.txt' })
    expect(await context.deps.storage.read(first.data!.mediaPath!)).toBeUndefined()
    const removed = await team.asAgent.api['quick-messages']({ id: mine.id })['media-upload'].delete()
    expect(removed.status).toBe(200)
    expect(removed.data).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null, mediaUrl: null })
    expect(await context.deps.storage.read(second.data!.mediaPath!)).toBeUndefined()
    expect(await row(mine.id)).toMatchObject({ mediaPath: null, mediaName: null })
  })

  test('refuses a file of a forbidden type (415), no file (422), and others\' messages (403/404)', async () => {
    const team = await makeTeam()
    const other = await makeTenant(context)
    const mine = await makeQuickMessage({ companyId: team.company.id, userId: team.agent.id, shortcode: 'mine' })
    const shared = await makeQuickMessage({ companyId: team.company.id, userId: team.colleague.id, shortcode: 'shared', geral: true })
    const foreign = await makeQuickMessage({ companyId: other.company.id, userId: other.agent.id, shortcode: 'foreign', geral: true })
    const html = await team.asAgent.api['quick-messages']({ id: mine.id })['media-upload'].post({ file: new File(['<html><script>x</script>'], 'page.html', { type: 'text/html' }) })
    expect(html.status).toBe(415)
    expect(errorOf(html)).toEqual({ error: 'ERR_INVALID_MEDIA_TYPE' })
    const missing = await team.asAgent.api['quick-messages']({ id: mine.id })['media-upload'].post({} as never)
    expect(missing.status).toBe(422)
    expect(fieldsOf(missing)).toContain('file')
    const file = () => new File([png], 'a.png', { type: 'image/png' })
    expect((await team.asAgent.api['quick-messages']({ id: shared.id })['media-upload'].post({ file: file() })).status).toBe(403)
    expect((await team.asAgent.api['quick-messages']({ id: foreign.id })['media-upload'].post({ file: file() })).status).toBe(404)
    expect((await team.asAgent.api['quick-messages']({ id: shared.id })['media-upload'].delete()).status).toBe(403)
    expect((await team.asAdmin.api['quick-messages']({ id: foreign.id })['media-upload'].delete()).status).toBe(404)
    expect((await context.api.api['quick-messages']({ id: mine.id })['media-upload'].post({ file: file() })).status).toBe(401)
    for (const id of [mine.id, shared.id, foreign.id]) expect(await row(id)).toMatchObject({ mediaPath: null })
  })
})
