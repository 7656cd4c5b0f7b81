// Database access for connections; every function is scoped by companyId, updates and deletes included.
import { and, asc, count, eq, inArray, ne } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { companies, queues, whatsappQueues, whatsapps } from '../../../db/schema/index.ts'
import type { ConnectionRow } from './connection-row.ts'

export type WhatsappRow = ConnectionRow
export type WhatsappRecord = WhatsappRow & { queues: { id: number; name: string; color: string }[] }

/** The company's connections (or some of them) with their queues, by name. */
export async function findWhatsappRecords(db: Executor, scope: { companyId: number; whatsappIds?: number[] }): Promise<WhatsappRecord[]> {
  if (scope.whatsappIds && scope.whatsappIds.length === 0) return []
  const conditions = [eq(whatsapps.companyId, scope.companyId)]
  if (scope.whatsappIds) conditions.push(inArray(whatsapps.id, scope.whatsappIds))
  const rows = await db
    .select()
    .from(whatsapps)
    .where(and(...conditions))
    .orderBy(asc(whatsapps.name), asc(whatsapps.id))
  if (rows.length === 0) return []
  const queueRows = await db
    .select({ whatsappId: whatsappQueues.whatsappId, id: queues.id, name: queues.name, color: queues.color })
    .from(whatsappQueues)
    .innerJoin(queues, and(eq(queues.id, whatsappQueues.queueId), eq(queues.companyId, whatsappQueues.companyId)))
    .where(and(eq(whatsappQueues.companyId, scope.companyId), inArray(whatsappQueues.whatsappId, rows.map((row) => row.id))))
    .orderBy(asc(queues.orderQueue), asc(queues.name))
  const byConnection = new Map<number, WhatsappRecord['queues']>()
  for (const { whatsappId, ...queue } of queueRows) {
    const list = byConnection.get(whatsappId)
    if (list) list.push(queue)
    else byConnection.set(whatsappId, [queue])
  }
  return rows.map((row) => ({ ...row, queues: byConnection.get(row.id) ?? [] }))
}

export async function findWhatsappRecord(db: Executor, scope: { companyId: number; whatsappId: number }): Promise<WhatsappRecord | undefined> {
  const [record] = await findWhatsappRecords(db, { companyId: scope.companyId, whatsappIds: [scope.whatsappId] })
  return record
}

export async function findCompanyWhatsapp(db: Executor, scope: { companyId: number; whatsappId: number }): Promise<WhatsappRow | undefined> {
  const [row] = await db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, scope.companyId), eq(whatsapps.id, scope.whatsappId)))
    .limit(1)
  return row
}

export async function findDefaultWhatsapp(db: Executor, companyId: number): Promise<WhatsappRow | undefined> {
  const [row] = await db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)))
    .limit(1)
  return row
}

/**
 * Serialises the writes that decide which connection is the default (the partial unique index would
 * otherwise turn a race into an error). assertWithinPlanLimit takes the same lock on creation.
 */
export async function lockCompany(tx: Executor, companyId: number): Promise<boolean> {
  const [row] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update')
  return row !== undefined
}

export async function countOtherWhatsapps(db: Executor, scope: { companyId: number; whatsappId: number }): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, scope.companyId), ne(whatsapps.id, scope.whatsappId)))
  return row?.value ?? 0
}

/** The oldest connection of the company other than this one: the one promoted to default. */
export async function findSuccessor(db: Executor, scope: { companyId: number; exceptWhatsappId: number }): Promise<WhatsappRow | undefined> {
  const [row] = await db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, scope.companyId), ne(whatsapps.id, scope.exceptWhatsappId)))
    .orderBy(asc(whatsapps.id))
    .limit(1)
  return row
}

export async function unsetDefault(tx: Executor, scope: { companyId: number; exceptWhatsappId?: number }): Promise<number[]> {
  const conditions = [eq(whatsapps.companyId, scope.companyId), eq(whatsapps.isDefault, true)]
  if (scope.exceptWhatsappId !== undefined) conditions.push(ne(whatsapps.id, scope.exceptWhatsappId))
  const rows = await tx
    .update(whatsapps)
    .set({ isDefault: false })
    .where(and(...conditions))
    .returning({ id: whatsapps.id })
  return rows.map((row) => row.id)
}

export async function setDefault(tx: Executor, scope: { companyId: number; whatsappId: number }): Promise<void> {
  await tx
    .update(whatsapps)
    .set({ isDefault: true })
    .where(and(eq(whatsapps.companyId, scope.companyId), eq(whatsapps.id, scope.whatsappId)))
}

export async function findWhatsappQueueIds(db: Executor, scope: { companyId: number; whatsappId: number }): Promise<number[]> {
  const rows = await db
    .select({ queueId: whatsappQueues.queueId })
    .from(whatsappQueues)
    .where(and(eq(whatsappQueues.companyId, scope.companyId), eq(whatsappQueues.whatsappId, scope.whatsappId)))
  return rows.map((row) => row.queueId)
}

export async function replaceWhatsappQueues(tx: Executor, scope: { companyId: number; whatsappId: number; queueIds: number[] }): Promise<void> {
  await tx.delete(whatsappQueues).where(and(eq(whatsappQueues.companyId, scope.companyId), eq(whatsappQueues.whatsappId, scope.whatsappId)))
  if (scope.queueIds.length === 0) return
  await tx.insert(whatsappQueues).values(scope.queueIds.map((queueId) => ({ companyId: scope.companyId, whatsappId: scope.whatsappId, queueId })))
}


/** What other modules read of a company's connections (campaigns: which may send, how old each is). */
export type ConnectionState = { id: number; name: string; status: ConnectionRow['status']; createdAt: Date }

/** The company's connections (these ids, or the CONNECTED ones, or all), by id. */
export async function findConnectionStates(db: Executor, scope: { companyId: number; ids?: number[]; connectedOnly?: boolean }): Promise<ConnectionState[]> {
  if (scope.ids && scope.ids.length === 0) return []
  return db
    .select({ id: whatsapps.id, name: whatsapps.name, status: whatsapps.status, createdAt: whatsapps.createdAt })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, scope.companyId), scope.ids ? inArray(whatsapps.id, scope.ids) : undefined, scope.connectedOnly ? eq(whatsapps.status, 'CONNECTED') : undefined))
    .orderBy(asc(whatsapps.id))
}
