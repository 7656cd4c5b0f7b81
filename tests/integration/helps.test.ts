import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { helps } from '../../db/schema/index.ts'
import type { DomainEvents } from '../../src/modules/events.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeSuper, makeTenant } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()

let platform: Awaited<ReturnType<typeof makeSuper>>
let tenant: Awaited<ReturnType<typeof makeTenant>>

beforeAll(async () => {
  platform = await makeSuper(context)
  tenant = await makeTenant(context)
})

async function makeHelp(overrides: Partial<typeof helps.$inferInsert> = {}) {
  const [help] = await context.db
    .insert(helps)
    .values({ title: `Help ${crypto.randomUUID().slice(0, 8)}`, description: 'How to', video: 'dQw4w9WgXcQ', ...overrides })
    .returning()
  return help!
}

async function helpRow(helpId: number) {
  const [row] = await context.db.select().from(helps).where(eq(helps.id, helpId))
  return row
}

function captureHelpEvents() {
  const events: DomainEvents['help.changed'][] = []
  const stop = context.deps.bus.on('help.changed', (event) => void events.push(event))
  return { events, stop }
}

describe('reading helps (any signed-in user)', () => {
  test('GET /api/helps/list gives every help by title, to agents too', async () => {
    await context.db.delete(helps)
    const second = await makeHelp({ title: 'B second' })
    const first = await makeHelp({ title: 'A first' })
    const { status, data } = await tenant.asAgent.api.helps.list.get()
    expect(status).toBe(200)
    expect(data!.map((help) => help.id)).toEqual([first.id, second.id])
    expect(data![0]).toMatchObject({ title: 'A first', description: 'How to', video: 'dQw4w9WgXcQ' })
  })

  test('GET /api/helps pages 20 by title with count and hasMore, and searches title and description', async () => {
    await context.db.delete(helps)
    for (let index = 1; index <= 22; index++) await makeHelp({ title: `Topic ${String(index).padStart(2, '0')}` })
    await makeHelp({ title: 'Zeta', description: 'About CAMPAIGNS and more' })
    const first = await tenant.asAgent.api.helps.get({ query: {} })
    expect(first.status).toBe(200)
    expect(first.data!.helps).toHaveLength(20)
    expect(first.data!.helps[0]!.title).toBe('Topic 01')
    expect(first.data!).toMatchObject({ count: 23, hasMore: true })
    const second = await tenant.asAgent.api.helps.get({ query: { pageNumber: 2 } })
    expect(second.data!.helps.map((help) => help.title)).toEqual(['Topic 21', 'Topic 22', 'Zeta'])
    expect(second.data!.hasMore).toBe(false)
    const search = await tenant.asAgent.api.helps.get({ query: { searchParam: 'campaigns' } })
    expect(search.data!).toMatchObject({ count: 1, hasMore: false })
    expect(search.data!.helps[0]!.title).toBe('Zeta')
    const byTitle = await tenant.asAgent.api.helps.get({ query: { searchParam: 'topic 1' } })
    expect(byTitle.data!.count).toBe(10)
  })

  test('GET /api/helps validates its query', async () => {
    const zero = await tenant.asAgent.api.helps.get({ query: { pageNumber: 0 } })
    expect(zero.status).toBe(422)
    const long = await tenant.asAgent.api.helps.get({ query: { searchParam: 'x'.repeat(101) } })
    expect(long.status).toBe(422)
    expect(fieldsOf(long)).toContain('searchParam')
  })

  test('GET /api/helps/{id} gives one help; unknown is 404 ERR_NO_HELP_FOUND', async () => {
    const help = await makeHelp()
    const found = await tenant.asAgent.api.helps({ id: help.id }).get()
    expect(found.status).toBe(200)
    expect(found.data).toMatchObject({ id: help.id, title: help.title })
    const missing = await tenant.asAgent.api.helps({ id: 999_999 }).get()
    expect(missing.status).toBe(404)
    expect(errorOf(missing)).toEqual({ error: 'ERR_NO_HELP_FOUND' })
  })

  test('every read needs a token', async () => {
    const help = await makeHelp()
    expect((await context.api.api.helps.get({ query: {} })).status).toBe(401)
    expect((await context.api.api.helps.list.get()).status).toBe(401)
    expect((await context.api.api.helps({ id: help.id }).get()).status).toBe(401)
  })
})

describe('POST /api/helps', () => {
  test('a super user publishes a help (a YouTube id or a URL)', async () => {
    const { events, stop } = captureHelpEvents()
    const { status, data } = await platform.client.api.helps.post({ title: '  Getting started ', description: 'First steps', video: 'dQw4w9WgXcQ' })
    stop()
    expect(status).toBe(200)
    expect(data).toMatchObject({ title: 'Getting started', description: 'First steps', video: 'dQw4w9WgXcQ' })
    expect(await helpRow(data!.id)).toMatchObject({ title: 'Getting started' })
    expect(JSON.parse(JSON.stringify(events))).toEqual([{ helpId: data!.id, action: 'create', help: data }])
    const byUrl = await platform.client.api.helps.post({ title: 'Connections', video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })
    expect(byUrl.status).toBe(200)
    expect(byUrl.data).toMatchObject({ description: '', video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })
  })

  test('validates title (2 to 100), description length and the video', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'title'],
      [{ title: 'A' }, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(101) }, 'title'],
      [{ title: 'Valid', description: 'x'.repeat(2001) }, 'description'],
      [{ title: 'Valid', video: 'not a video' }, 'video'],
      [{ title: 'Valid', video: 'short' }, 'video'],
      [{ title: 'Valid', video: 'javascript:alert(1)' }, 'video'],
      [{ title: 'Valid', video: `https://example.com/${'x'.repeat(500)}` }, 'video'],
    ]
    const before = await context.db.select().from(helps)
    for (const [body, field] of cases) {
      const result = await platform.client.api.helps.post(body as { title: string })
      expect({ field, status: result.status }).toEqual({ field, status: 422 })
      expect(fieldsOf(result)).toContain(field)
    }
    expect(await context.db.select().from(helps)).toHaveLength(before.length)
  })

  test('only super users: an admin and an agent get 403, no token 401', async () => {
    const before = await context.db.select().from(helps)
    for (const client of [tenant.asAdmin, tenant.asAgent]) {
      const result = await client.api.helps.post({ title: 'Sneaky help' })
      expect(result.status).toBe(403)
      expect(errorOf(result)).toEqual({ error: 'ERR_NO_PERMISSION' })
    }
    expect((await context.api.api.helps.post({ title: 'Sneaky help' })).status).toBe(401)
    expect(await context.db.select().from(helps)).toHaveLength(before.length)
  })
})

describe('PUT /api/helps/{id}', () => {
  test('a super user edits a help; absent fields stay', async () => {
    const help = await makeHelp({ description: 'Old text', video: 'dQw4w9WgXcQ' })
    const { events, stop } = captureHelpEvents()
    const { status, data } = await platform.client.api.helps({ id: help.id }).put({ title: 'Renamed', video: 'https://videos.example.com/x.mp4' })
    stop()
    expect(status).toBe(200)
    expect(data).toMatchObject({ id: help.id, title: 'Renamed', description: 'Old text', video: 'https://videos.example.com/x.mp4' })
    expect(await helpRow(help.id)).toMatchObject({ title: 'Renamed', description: 'Old text' })
    expect(JSON.parse(JSON.stringify(events))).toEqual([{ helpId: help.id, action: 'update', help: data }])
    const cleared = await platform.client.api.helps({ id: help.id }).put({ title: 'Renamed', description: '', video: '' })
    expect(cleared.data).toMatchObject({ description: '', video: '' })
  })

  test('validates the body and the id', async () => {
    const help = await makeHelp()
    const short = await platform.client.api.helps({ id: help.id }).put({ title: 'A' })
    expect(short.status).toBe(422)
    expect(fieldsOf(short)).toContain('title')
    const video = await platform.client.api.helps({ id: help.id }).put({ title: 'Valid', video: 'nope' })
    expect(video.status).toBe(422)
    expect(fieldsOf(video)).toContain('video')
    const badId = await platform.client.api.helps({ id: 'abc' }).put({ title: 'Valid' })
    expect(badId.status).toBe(422)
    expect(fieldsOf(badId)).toContain('id')
    expect(await helpRow(help.id)).toEqual(help)
  })

  test('unknown id is 404 ERR_NO_HELP_FOUND', async () => {
    const result = await platform.client.api.helps({ id: 999_999 }).put({ title: 'Nothing' })
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_HELP_FOUND' })
  })

  test('only super users: admin 403, no token 401, nothing changes', async () => {
    const help = await makeHelp()
    const admin = await tenant.asAdmin.api.helps({ id: help.id }).put({ title: 'Defaced' })
    expect(admin.status).toBe(403)
    expect(errorOf(admin)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await tenant.asAgent.api.helps({ id: help.id }).put({ title: 'Defaced' })).status).toBe(403)
    expect((await context.api.api.helps({ id: help.id }).put({ title: 'Defaced' })).status).toBe(401)
    expect(await helpRow(help.id)).toEqual(help)
  })
})

describe('DELETE /api/helps/{id}', () => {
  test('a super user removes a help', async () => {
    const help = await makeHelp()
    const { events, stop } = captureHelpEvents()
    const { status, data } = await platform.client.api.helps({ id: help.id }).delete()
    stop()
    expect(status).toBe(200)
    expect(data).toEqual({ ok: true })
    expect(await helpRow(help.id)).toBeUndefined()
    expect(events).toEqual([{ helpId: help.id, action: 'delete' }])
    const again = await platform.client.api.helps({ id: help.id }).delete()
    expect(again.status).toBe(404)
    expect(errorOf(again)).toEqual({ error: 'ERR_NO_HELP_FOUND' })
  })

  test('only super users: admin and agent 403, no token 401, the help stays', async () => {
    const help = await makeHelp()
    expect((await tenant.asAdmin.api.helps({ id: help.id }).delete()).status).toBe(403)
    expect((await tenant.asAgent.api.helps({ id: help.id }).delete()).status).toBe(403)
    expect((await context.api.api.helps({ id: help.id }).delete()).status).toBe(401)
    expect(await helpRow(help.id)).toBeDefined()
  })
})
