// What WhatsApp reports about messages already stored: acks, deletions, edits, and the raw message
// it asks back to retry a decryption. Each is one statement on the messages of one connection,
// found by their WhatsApp id; the changed row's id and ticket come back for the frame.
import { and, eq, lt } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { messages } from '../../../db/schema/index.ts'
import type { ConnectionRef } from '../../channels/provider.ts'

export type ChangedMessage = { id: number; ticketId: number }

const byWid = (connection: ConnectionRef, wid: string) =>
  and(eq(messages.companyId, connection.companyId), eq(messages.whatsappId, connection.whatsappId), eq(messages.wid, wid))

/** Raises the message's ack; undefined when no message has that id or its ack is as high already. */
export async function applyInboundAck(db: Executor, connection: ConnectionRef, update: { wid: string; ack: number; now: Date }): Promise<ChangedMessage | undefined> {
  const [row] = await db
    .update(messages)
    .set({ ack: update.ack, updatedAt: update.now })
    // Acks arrive out of order (read before delivered): never lower one.
    .where(and(byWid(connection, update.wid), lt(messages.ack, update.ack)))
    .returning({ id: messages.id, ticketId: messages.ticketId })
  return row
}

/** Marks the message deleted for everyone; undefined when unknown or deleted already. */
export async function markRevoked(db: Executor, connection: ConnectionRef, update: { wid: string; now: Date }): Promise<ChangedMessage | undefined> {
  const [row] = await db
    .update(messages)
    .set({ isDeleted: true, updatedAt: update.now })
    .where(and(byWid(connection, update.wid), eq(messages.isDeleted, false)))
    .returning({ id: messages.id, ticketId: messages.ticketId })
  return row
}

/** Replaces the message's text (already storable) and marks it edited; undefined when unknown. */
export async function applyEdit(db: Executor, connection: ConnectionRef, update: { wid: string; body: string; now: Date }): Promise<ChangedMessage | undefined> {
  const [row] = await db
    .update(messages)
    .set({ body: update.body, isEdited: true, updatedAt: update.now })
    .where(byWid(connection, update.wid))
    .returning({ id: messages.id, ticketId: messages.ticketId })
  return row
}

/** The provider's raw message as stored (storable.ts), or undefined. */
export async function findRawMessage(db: Executor, connection: ConnectionRef, wid: string): Promise<unknown> {
  const [row] = await db.select({ raw: messages.raw }).from(messages).where(byWid(connection, wid)).limit(1)
  return row?.raw ?? undefined
}
