// The inbound batch statement (inbound-store-batch.ts) is prepared: after five executions PostgreSQL
// keeps one generic plan per connection, planned from the statistics of that moment, and keeps it
// until the tables are analyzed again. On a new server (tables nearly empty, never analyzed) that
// plan once read the whole messages table to find the redeliveries, and every open ticket of the
// company, for every batch, however large the tables had grown since (bench/README.md, session 13).
// Each message's lookups must go through their unique indexes whatever the statistics say.
import { afterAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { statementText } from '../../src/modules/messages/inbound-store-batch.ts'
import { rowsOf } from '../../src/core/sql.ts'
import { createTestDatabase } from '../helpers/database.ts'

const database = await createTestDatabase()
afterAll(() => database.drop())

async function genericPlan(): Promise<string> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql.raw('set local plan_cache_mode = force_generic_plan'))
    await tx.execute(sql.raw(`prepare inbound_batch_plan(json, integer, timestamptz) as ${statementText.replace(/\$(\d)::[a-z]+/g, '$$$1')}`))
    const lines = rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql.raw(`explain (costs off) execute inbound_batch_plan('[]', 1, now())`)))
    await tx.execute(sql.raw('deallocate inbound_batch_plan'))
    return lines.map((line) => line['QUERY PLAN']).join('\n')
  })
}

describe('the inbound batch statement on a generic plan, on tables never analyzed', () => {
  test('finds redeliveries, contacts and open tickets through their unique indexes, and scans no table', async () => {
    const plan = await genericPlan()
    expect(plan).toContain('using messages_whatsapp_wid_unique on messages')
    expect(plan).toContain('using contacts_company_number_unique on contacts')
    expect(plan).toContain('using tickets_one_open_per_contact_connection on tickets')
    expect(plan).not.toMatch(/(Seq|Bitmap Heap) Scan on (messages|contacts|tickets)\b/)
  })
})
