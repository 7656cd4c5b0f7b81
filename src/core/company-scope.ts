// The checks a write makes before it links rows: is this id one of the company's own? One place,
// so that no module forgets the company when it trusts an id from a request body.
import { and, eq, inArray } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { companies, prompts, queueIntegrations, queues, whatsapps } from '../../db/schema/index.ts'

const ownedTables = { queues, prompts, integrations: queueIntegrations, connections: whatsapps }
export type OwnedKind = keyof typeof ownedTables

/** Which of these ids are rows of the company (in the given kind). */
export async function ownedIds(db: Executor, scope: { companyId: number; kind: OwnedKind; ids: readonly number[] }): Promise<number[]> {
  if (scope.ids.length === 0) return []
  const table = ownedTables[scope.kind]
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.companyId, scope.companyId), inArray(table.id, [...scope.ids])))
  return rows.map((row) => row.id)
}

export async function isOwned(db: Executor, scope: { companyId: number; kind: OwnedKind; id: number }): Promise<boolean> {
  return (await ownedIds(db, { companyId: scope.companyId, kind: scope.kind, ids: [scope.id] })).length === 1
}

export async function companyExists(db: Executor, companyId: number): Promise<boolean> {
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).limit(1)
  return row !== undefined
}
