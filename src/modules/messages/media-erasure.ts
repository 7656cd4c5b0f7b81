// Deleted for everyone is deleted here too (issue 11 #9): whether we deleted the message or the customer
// revoked it on WhatsApp (the inbound pipeline), its file is removed once the row says so, unless
// another row still holds it (a sent schedule's message shares the schedule's file). The public route
// already refuses the links of a deleted message; this frees the disk and the data.
import { and, eq } from 'drizzle-orm'
import { messages } from '../../../db/schema/index.ts'
import { removeUnreferencedMedia } from '../../core/storage/media-references.ts'
import type { Deps } from '../deps.ts'

type ErasureDeps = Pick<Deps, 'bus' | 'db' | 'storage' | 'logger'>

async function eraseDeletedMessageMedia(deps: ErasureDeps, companyId: number, messageId: number): Promise<void> {
  const [row] = await deps.db
    .select({ mediaPath: messages.mediaPath })
    .from(messages)
    .where(and(eq(messages.companyId, companyId), eq(messages.id, messageId), eq(messages.isDeleted, true)))
  if (row?.mediaPath) await removeUnreferencedMedia(deps, companyId, [row.mediaPath])
}

export function listenMessageMediaErasure(deps: ErasureDeps): () => void {
  return deps.bus.on('message.updated', (event) => {
    // Acks run through here on the inbound hot path: only a deleted message with media costs a query.
    if (!event.message.isDeleted || (event.message.mediaType === 'chat' && event.message.mediaName === null)) return
    return eraseDeletedMessageMedia(deps, event.companyId, event.messageId)
  })
}
