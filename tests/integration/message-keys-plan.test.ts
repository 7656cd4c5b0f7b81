// What the foreign keys of messages do when the row they point at is deleted must find the referring
// messages through an index: the quoted message's key (SET NULL) runs once per deleted message (a
// ticket's deletion, the retention job, an erasure), the contact's once per deleted contact. Without an
// index each of them read the whole table, or every message of the company (migration 0028). The
// statements below are the ones PostgreSQL's key triggers run; with sequential scans off, a plan
// without a usable index still falls back to one, so the test fails on the old indexes.
import { afterAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { rowsOf } from '../../src/core/sql.ts'
import { createTestDatabase } from '../helpers/database.ts'

const database = await createTestDatabase()
afterAll(() => database.drop())

async function plan(statement: string): Promise<string> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql.raw('set local enable_seqscan = off'))
    const lines = rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql.raw(`explain (costs off) ${statement}`)))
    return lines.map((line) => line['QUERY PLAN']).join('\n')
  })
}

describe("the messages' foreign keys, when what they point at is deleted", () => {
  test('the quoted message: the quoting messages through messages_quoted_msg_idx', async () => {
    const lines = await plan('update only messages set quoted_msg_id = null where 42 = quoted_msg_id')
    expect(lines).toContain('messages_quoted_msg_idx')
    expect(lines).not.toContain('Seq Scan')
  })

  test("the contact: its messages through (company_id, contact_id), not every message of the company", async () => {
    const lines = await plan('update only messages set contact_id = null where 7 = company_id and 42 = contact_id')
    expect(lines).toContain('messages_company_contact_idx')
    expect(lines).toMatch(/Index Cond: \(\(company_id = 7\) AND \(contact_id = 42\)\)/)
    expect(lines).not.toContain('Seq Scan')
  })
})
