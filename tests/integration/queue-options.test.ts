import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { queueOptions } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeQueue, makeTenant } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()

type Tenant = Awaited<ReturnType<typeof makeTenant>>

async function optionRows(queueId: number) {
  return context.db.select().from(queueOptions).where(eq(queueOptions.queueId, queueId))
}

async function optionRow(optionId: number) {
  const [row] = await context.db.select().from(queueOptions).where(eq(queueOptions.id, optionId))
  return row
}

/** An option made through the API, as an admin. */
async function addOption(tenant: Tenant, body: { queueId: number; parentId?: number | null; title?: string; option?: string | number; message?: string }) {
  const { status, data, error } = await tenant.asAdmin.api['queue-options'].post({ title: body.title ?? 'Option', ...body })
  if (status !== 200) throw new Error(`addOption failed: ${status} ${JSON.stringify(error?.value)}`)
  return data!
}

/**
 * A queue with this menu:
 *   1 Sales -> 1 New, 2 Used -> (1 Cars under Used)
 *   2 Support
 */
async function makeMenu(tenant: Tenant) {
  const queue = await makeQueue(context.db, { companyId: tenant.company.id })
  const sales = await addOption(tenant, { queueId: queue.id, title: 'Sales', option: '1', message: 'Sales menu' })
  const support = await addOption(tenant, { queueId: queue.id, title: 'Support', option: '2' })
  const used = await addOption(tenant, { queueId: queue.id, parentId: sales.id, title: 'Used', option: '2' })
  const fresh = await addOption(tenant, { queueId: queue.id, parentId: sales.id, title: 'New', option: '1' })
  const cars = await addOption(tenant, { queueId: queue.id, parentId: used.id, title: 'Cars', option: '1' })
  return { queue, sales, support, used, fresh, cars }
}

describe('POST /api/queue-options', () => {
  test('an admin adds root and nested options; -1 and null both mean root', async () => {
    const tenant = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    const root = await tenant.asAdmin.api['queue-options'].post({ queueId: queue.id, parentId: -1, title: '  Sales ', message: 'Choose', option: '1' })
    expect(root.status).toBe(200)
    expect(root.data).toMatchObject({ queueId: queue.id, parentId: null, title: 'Sales', message: 'Choose', option: '1' })
    const other = await tenant.asAdmin.api['queue-options'].post({ queueId: queue.id, parentId: null, title: 'Support', option: 2 })
    expect(other.data).toMatchObject({ parentId: null, option: '2', message: '' })
    const child = await tenant.asAdmin.api['queue-options'].post({ queueId: queue.id, parentId: root.data!.id, title: 'New', option: '007' })
    expect(child.data).toMatchObject({ parentId: root.data!.id, option: '7' })
    expect(await optionRow(child.data!.id)).toMatchObject({ companyId: tenant.company.id, queueId: queue.id, parentId: root.data!.id })
  })

  test('without an option number, the next one after its siblings is given', async () => {
    const tenant = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    const first = await addOption(tenant, { queueId: queue.id })
    expect(first.option).toBe('1')
    await addOption(tenant, { queueId: queue.id, option: '5' })
    expect((await addOption(tenant, { queueId: queue.id })).option).toBe('6')
    expect((await addOption(tenant, { queueId: queue.id, parentId: first.id })).option).toBe('1')
  })

  test('an option number its siblings use is 409; under another parent it is fine', async () => {
    const tenant = await makeTenant(context)
    const { queue, sales } = await makeMenu(tenant)
    const before = await optionRows(queue.id)
    const root = await tenant.asAdmin.api['queue-options'].post({ queueId: queue.id, title: 'Again', option: '01' })
    expect(root.status).toBe(409)
    expect(errorOf(root)).toEqual({ error: 'ERR_QUEUE_OPTION_ALREADY_EXISTS' })
    const nested = await tenant.asAdmin.api['queue-options'].post({ queueId: queue.id, parentId: sales.id, title: 'Again', option: 2 })
    expect(errorOf(nested)).toEqual({ error: 'ERR_QUEUE_OPTION_ALREADY_EXISTS' })
    expect(await optionRows(queue.id)).toHaveLength(before.length)
    const elsewhere = await makeQueue(context.db, { companyId: tenant.company.id })
    expect((await tenant.asAdmin.api['queue-options'].post({ queueId: elsewhere.id, title: 'Fine', option: '1' })).status).toBe(200)
  })

  test('validates title, message, option, queueId and parentId (422, nothing stored)', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const { queue } = await makeMenu(tenant)
    const otherQueue = await makeQueue(context.db, { companyId: tenant.company.id })
    const otherQueueOption = await addOption(tenant, { queueId: otherQueue.id })
    const foreign = await makeMenu(other)
    const before = await optionRows(queue.id)
    const cases: [Record<string, unknown>, string][] = [
      [{ queueId: queue.id }, 'title'],
      [{ queueId: queue.id, title: '' }, 'title'],
      [{ queueId: queue.id, title: '   ' }, 'title'],
      [{ queueId: queue.id, title: 'x'.repeat(101) }, 'title'],
      [{ queueId: queue.id, title: 'T', message: 'x'.repeat(5001) }, 'message'],
      [{ queueId: queue.id, title: 'T', option: '' }, 'option'],
      [{ queueId: queue.id, title: 'T', option: '1234' }, 'option'],
      [{ queueId: queue.id, title: 'T', option: 'a' }, 'option'],
      [{ queueId: queue.id, title: 'T', option: -1 }, 'option'],
      [{ queueId: queue.id, title: 'T', option: 1000 }, 'option'],
      [{ title: 'T' }, 'queueId'],
      [{ queueId: 0, title: 'T' }, 'queueId'],
      [{ queueId: queue.id, title: 'T', parentId: -2 }, 'parentId'],
      [{ queueId: queue.id, title: 'T', parentId: 999_999 }, 'parentId'],
      [{ queueId: queue.id, title: 'T', parentId: otherQueueOption.id }, 'parentId'],
      [{ queueId: queue.id, title: 'T', parentId: foreign.sales.id }, 'parentId'],
    ]
    for (const [body, field] of cases) {
      const result = await tenant.asAdmin.api['queue-options'].post(body as never)
      expect(result.status, JSON.stringify(body).slice(0, 80)).toBe(422)
      expect(fieldsOf(result), JSON.stringify(body).slice(0, 80)).toContain(field)
    }
    expect(await optionRows(queue.id)).toHaveLength(before.length)
  })

  test("another company's queue is 404 ERR_NO_QUEUE_FOUND and gets nothing", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: other.company.id })
    const result = await tenant.asAdmin.api['queue-options'].post({ queueId: queue.id, title: 'Intruder', option: '1' })
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_QUEUE_FOUND' })
    expect(await optionRows(queue.id)).toEqual([])
  })

  test('is for admins: an agent gets 403, no token 401', async () => {
    const tenant = await makeTenant(context)
    const queue = await makeQueue(context.db, { companyId: tenant.company.id })
    const agent = await tenant.asAgent.api['queue-options'].post({ queueId: queue.id, title: 'Agent' })
    expect(agent.status).toBe(403)
    expect(errorOf(agent)).toEqual({ error: 'ERR_NO_PERMISSION' })
    expect((await context.api.api['queue-options'].post({ queueId: queue.id, title: 'Anonymous' })).status).toBe(401)
    expect(await optionRows(queue.id)).toEqual([])
  })
})

describe('GET /api/queue-options', () => {
  test('lists the roots (parentId -1 or absent) or the children of a parent, by option number', async () => {
    const tenant = await makeTenant(context)
    const { queue, sales, support, used, fresh, cars } = await makeMenu(tenant)
    const ten = await addOption(tenant, { queueId: queue.id, title: 'Ten', option: '10' })
    for (const query of [{ queueId: queue.id }, { queueId: queue.id, parentId: -1 }]) {
      const { status, data } = await tenant.asAgent.api['queue-options'].get({ query })
      expect(status).toBe(200)
      expect(data!.map((option) => option.id)).toEqual([sales.id, support.id, ten.id])
    }
    const children = await tenant.asAgent.api['queue-options'].get({ query: { queueId: queue.id, parentId: sales.id } })
    expect(children.data!.map((option) => option.title)).toEqual(['New', 'Used'])
    expect(children.data![0]).toMatchObject({ id: fresh.id, parentId: sales.id, option: '1' })
    const deeper = await tenant.asAgent.api['queue-options'].get({ query: { queueId: queue.id, parentId: used.id } })
    expect(deeper.data!.map((option) => option.id)).toEqual([cars.id])
    const leaf = await tenant.asAgent.api['queue-options'].get({ query: { queueId: queue.id, parentId: cars.id } })
    expect(leaf.data).toEqual([])
  })

  test("another company's queue or parent is 404; queueId is required; no token 401", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const foreign = await makeMenu(other)
    const { queue } = await makeMenu(tenant)
    const foreignQueue = await tenant.asAdmin.api['queue-options'].get({ query: { queueId: foreign.queue.id } })
    expect(foreignQueue.status).toBe(404)
    expect(errorOf(foreignQueue)).toEqual({ error: 'ERR_NO_QUEUE_FOUND' })
    const foreignParent = await tenant.asAdmin.api['queue-options'].get({ query: { queueId: queue.id, parentId: foreign.sales.id } })
    expect(foreignParent.status).toBe(404)
    expect(errorOf(foreignParent)).toEqual({ error: 'ERR_NO_QUEUE_OPTION_FOUND' })
    const missing = await tenant.asAdmin.api['queue-options'].get({ query: {} as never })
    expect(missing.status).toBe(422)
    expect(fieldsOf(missing)).toContain('queueId')
    const bad = await tenant.asAdmin.api['queue-options'].get({ query: { queueId: queue.id, parentId: -5 } })
    expect(bad.status).toBe(422)
    expect(fieldsOf(bad)).toContain('parentId')
    expect((await context.api.api['queue-options'].get({ query: { queueId: queue.id } })).status).toBe(401)
  })
})

describe('GET /api/queue-options/tree', () => {
  test('the whole menu nested through children, each level by option number', async () => {
    const tenant = await makeTenant(context)
    const { queue, sales, support, used, fresh, cars } = await makeMenu(tenant)
    const { status, data } = await tenant.asAgent.api['queue-options'].tree.get({ query: { queueId: queue.id } })
    expect(status).toBe(200)
    const shape = (nodes: typeof data): unknown => nodes!.map((node) => ({ id: node.id, option: node.option, children: shape(node.children) }))
    expect(shape(data)).toEqual([
      {
        id: sales.id,
        option: '1',
        children: [
          { id: fresh.id, option: '1', children: [] },
          { id: used.id, option: '2', children: [{ id: cars.id, option: '1', children: [] }] },
        ],
      },
      { id: support.id, option: '2', children: [] },
    ])
    expect(data![0]).toMatchObject({ title: 'Sales', message: 'Sales menu', queueId: queue.id, parentId: null })
    const empty = await makeQueue(context.db, { companyId: tenant.company.id })
    expect((await tenant.asAgent.api['queue-options'].tree.get({ query: { queueId: empty.id } })).data).toEqual([])
  })

  test("another company's queue is 404; no token 401", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const foreign = await makeMenu(other)
    const result = await tenant.asAdmin.api['queue-options'].tree.get({ query: { queueId: foreign.queue.id } })
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_QUEUE_FOUND' })
    expect((await context.api.api['queue-options'].tree.get({ query: { queueId: foreign.queue.id } })).status).toBe(401)
  })
})

describe('GET /api/queue-options/{id}', () => {
  test("one option; another company's is 404", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const { sales } = await makeMenu(tenant)
    const found = await tenant.asAgent.api['queue-options']({ id: sales.id }).get()
    expect(found.data).toMatchObject({ id: sales.id, title: 'Sales' })
    const foreign = await other.asAdmin.api['queue-options']({ id: sales.id }).get()
    expect(foreign.status).toBe(404)
    expect(errorOf(foreign)).toEqual({ error: 'ERR_NO_QUEUE_OPTION_FOUND' })
  })
})

describe('PUT /api/queue-options/{id}', () => {
  test('edits title, message and number, and moves an option to another parent or to the root', async () => {
    const tenant = await makeTenant(context)
    const { queue, sales, support, used, cars } = await makeMenu(tenant)
    const edited = await tenant.asAdmin.api['queue-options']({ id: support.id }).put({ title: 'Help', message: 'How can we help?', option: '3', queueId: queue.id })
    expect(edited.status).toBe(200)
    expect(edited.data).toMatchObject({ title: 'Help', message: 'How can we help?', option: '3', parentId: null })
    // Moves "Used" (with Cars below it) under Help.
    const moved = await tenant.asAdmin.api['queue-options']({ id: used.id }).put({ parentId: support.id })
    expect(moved.data).toMatchObject({ parentId: support.id, option: '2' })
    expect(await optionRow(cars.id)).toMatchObject({ parentId: used.id })
    const toRoot = await tenant.asAdmin.api['queue-options']({ id: cars.id }).put({ parentId: -1, option: '9' })
    expect(toRoot.data).toMatchObject({ parentId: null, option: '9' })
    const unchanged = await tenant.asAdmin.api['queue-options']({ id: sales.id }).put({})
    expect(unchanged.data).toMatchObject({ title: 'Sales', option: '1', parentId: null })
    // Keeping its own number is no conflict.
    expect((await tenant.asAdmin.api['queue-options']({ id: sales.id }).put({ option: '1' })).status).toBe(200)
  })

  test('an option cannot go under itself or one of its descendants (422 parentId), the tree stays intact', async () => {
    const tenant = await makeTenant(context)
    const { queue, sales, used, cars } = await makeMenu(tenant)
    const before = await optionRows(queue.id)
    for (const parentId of [sales.id, used.id, cars.id]) {
      const result = await tenant.asAdmin.api['queue-options']({ id: sales.id }).put({ parentId })
      expect(result.status).toBe(422)
      expect(fieldsOf(result)).toEqual(['parentId'])
    }
    const self = await tenant.asAdmin.api['queue-options']({ id: cars.id }).put({ parentId: cars.id })
    expect(fieldsOf(self)).toEqual(['parentId'])
    const after = await optionRows(queue.id)
    expect(after.map((row) => [row.id, row.parentId]).sort()).toEqual(before.map((row) => [row.id, row.parentId]).sort())
    const tree = await tenant.asAdmin.api['queue-options'].tree.get({ query: { queueId: queue.id } })
    const count = (nodes: NonNullable<typeof tree.data>): number => nodes.reduce((sum, node) => sum + 1 + count(node.children), 0)
    expect(count(tree.data!)).toBe(before.length)
  })

  test('a number the new siblings use is 409; other bad input 422; another queue or company refused', async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const { queue, sales, support, fresh } = await makeMenu(tenant)
    const elsewhere = await makeQueue(context.db, { companyId: tenant.company.id })
    const elsewhereOption = await addOption(tenant, { queueId: elsewhere.id })
    const foreign = await makeMenu(other)
    const taken = await tenant.asAdmin.api['queue-options']({ id: support.id }).put({ option: '1' })
    expect(taken.status).toBe(409)
    expect(errorOf(taken)).toEqual({ error: 'ERR_QUEUE_OPTION_ALREADY_EXISTS' })
    // Moving "Support" (number 2) under Sales, where "Used" is 2.
    const moved = await tenant.asAdmin.api['queue-options']({ id: support.id }).put({ parentId: sales.id })
    expect(errorOf(moved)).toEqual({ error: 'ERR_QUEUE_OPTION_ALREADY_EXISTS' })
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, 'title'],
      [{ option: 'x' }, 'option'],
      [{ queueId: elsewhere.id }, 'queueId'],
      [{ parentId: elsewhereOption.id }, 'parentId'],
      [{ parentId: foreign.sales.id }, 'parentId'],
    ]
    for (const [body, field] of cases) {
      const result = await tenant.asAdmin.api['queue-options']({ id: fresh.id }).put(body as never)
      expect(result.status).toBe(422)
      expect(fieldsOf(result)).toContain(field)
    }
    expect(await optionRow(support.id)).toMatchObject({ option: '2', parentId: null, queueId: queue.id })
    expect(await optionRow(fresh.id)).toMatchObject({ title: 'New', parentId: sales.id, queueId: queue.id })
  })

  test("another company's option is 404 and unchanged; agents 403; no token 401", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const foreign = await makeMenu(other)
    const result = await tenant.asAdmin.api['queue-options']({ id: foreign.sales.id }).put({ title: 'Hijacked' })
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_QUEUE_OPTION_FOUND' })
    const agent = await other.asAgent.api['queue-options']({ id: foreign.sales.id }).put({ title: 'Agent' })
    expect(agent.status).toBe(403)
    expect((await context.api.api['queue-options']({ id: foreign.sales.id }).put({ title: 'Anonymous' })).status).toBe(401)
    expect(await optionRow(foreign.sales.id)).toMatchObject({ title: 'Sales' })
  })
})

describe('DELETE /api/queue-options/{id}', () => {
  test('removes the option and its whole subtree, nothing else', async () => {
    const tenant = await makeTenant(context)
    const { queue, sales, support, used, fresh, cars } = await makeMenu(tenant)
    const { status, data } = await tenant.asAdmin.api['queue-options']({ id: sales.id }).delete()
    expect(status).toBe(200)
    expect(data!.ok).toBe(true)
    expect([...data!.deletedIds].sort((a, b) => a - b)).toEqual([sales.id, used.id, fresh.id, cars.id].sort((a, b) => a - b))
    expect((await optionRows(queue.id)).map((row) => row.id)).toEqual([support.id])
    const again = await tenant.asAdmin.api['queue-options']({ id: sales.id }).delete()
    expect(again.status).toBe(404)
    expect(errorOf(again)).toEqual({ error: 'ERR_NO_QUEUE_OPTION_FOUND' })
  })

  test('removing a leaf leaves its parent', async () => {
    const tenant = await makeTenant(context)
    const { queue, cars } = await makeMenu(tenant)
    const { data } = await tenant.asAdmin.api['queue-options']({ id: cars.id }).delete()
    expect(data!.deletedIds).toEqual([cars.id])
    expect(await optionRows(queue.id)).toHaveLength(4)
  })

  test("another company's option is 404 and stays; agents 403; no token 401", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const foreign = await makeMenu(other)
    const result = await tenant.asAdmin.api['queue-options']({ id: foreign.sales.id }).delete()
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_QUEUE_OPTION_FOUND' })
    const agent = await other.asAgent.api['queue-options']({ id: foreign.sales.id }).delete()
    expect(agent.status).toBe(403)
    expect((await context.api.api['queue-options']({ id: foreign.sales.id }).delete()).status).toBe(401)
    expect(await optionRows(foreign.queue.id)).toHaveLength(5)
  })
})
