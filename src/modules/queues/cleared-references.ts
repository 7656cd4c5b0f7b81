// Deleting a prompt or an integration leaves the queues and connections that pointed to it without
// one. The foreign keys would null the columns by themselves, but silently: open pages would keep the
// deleted id and their next save would be refused on a field the admin did not touch. So the delete
// clears them itself, in its transaction, and emits their changes afterwards.
import { and, eq } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { queues, whatsapps } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { findQueue } from './queries.ts'

export type AiReference = 'promptId' | 'integrationId'
export type ClearedReferences = { queueIds: number[]; whatsappIds: number[] }

export async function clearAiReference(
  tx: Executor,
  input: { companyId: number; column: AiReference; id: number; now: Date },
): Promise<ClearedReferences> {
  const { companyId, column, id, now } = input
  const queueRows = await tx
    .update(queues)
    .set({ [column]: null, updatedAt: now })
    .where(and(eq(queues.companyId, companyId), eq(queues[column], id)))
    .returning({ id: queues.id })
  const whatsappRows = await tx
    .update(whatsapps)
    .set({ [column]: null, updatedAt: now })
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps[column], id)))
    .returning({ id: whatsapps.id })
  return { queueIds: queueRows.map((row) => row.id), whatsappIds: whatsappRows.map((row) => row.id) }
}

/** After the commit: the queues and connections emit their change, with the rows as they now are. */
export async function emitClearedReferences(deps: Deps, companyId: number, cleared: ClearedReferences): Promise<void> {
  for (const queueId of cleared.queueIds) {
    const queue = await findQueue(deps.db, { companyId, queueId })
    if (queue) deps.bus.emit('queue.changed', { companyId, queueId, action: 'update', queue })
  }
  for (const whatsappId of cleared.whatsappIds) await deps.bus.emit('whatsapp.changed', { companyId, action: 'update', whatsappId })
}
