// The media of an inbound message arrives after the message: the message is stored with its media
// type and no file (so a slow or hostile download never holds the contact's lane), then a job fetches
// the file and attaches it here, or marks the message ERR_WAPP_DOWNLOAD_MEDIA. Each change is one
// conditional statement, so a job that runs twice attaches one file, and both end in message.updated.
import { and, asc, eq, gte, inArray, isNull, lte } from 'drizzle-orm'
import { messages } from '../../../db/schema/index.ts'
import type { MediaType } from '../../../db/schema/messages.ts'
import type { Deps } from '../deps.ts'
import { changeMessage } from './announce.ts'

/** The code a message carries (in sendError) when its media could not be fetched. */
export const mediaDownloadFailed = 'ERR_WAPP_DOWNLOAD_MEDIA'

type MessageRef = { companyId: number; messageId: number }

/** Still waiting for its file: no file, no failure recorded, not deleted. */
const awaitingMedia = ({ companyId, messageId }: MessageRef) =>
  and(eq(messages.companyId, companyId), eq(messages.id, messageId), isNull(messages.mediaPath), isNull(messages.sendError), eq(messages.isDeleted, false))

/** Whether the message still waits for its media (false: attached, failed, deleted or gone). */
export async function isAwaitingMedia(deps: Pick<Deps, 'db'>, ref: MessageRef): Promise<boolean> {
  const [row] = await deps.db.select({ id: messages.id }).from(messages).where(awaitingMedia(ref)).limit(1)
  return Boolean(row)
}

/**
 * Gives the message its stored file and tells it (message.updated). False when the message no longer
 * waits for one (another run attached it, or it was deleted): the caller removes the file it saved.
 */
export async function attachInboundMedia(deps: Pick<Deps, 'db' | 'bus' | 'config' | 'now'>, input: MessageRef & { path: string; name: string }): Promise<boolean> {
  const changed = await changeMessage(deps, input.companyId, async (tx) => {
    const [row] = await tx
      .update(messages)
      .set({ mediaPath: input.path, mediaName: input.name, updatedAt: deps.now() })
      .where(awaitingMedia(input))
      .returning({ id: messages.id, ticketId: messages.ticketId })
    return row
  })
  return changed !== undefined
}

/** Records that the media could not be fetched (the chat shows ERR_WAPP_DOWNLOAD_MEDIA) and tells it. */
export async function markInboundMediaFailed(deps: Pick<Deps, 'db' | 'bus' | 'config' | 'now'>, input: MessageRef): Promise<void> {
  await changeMessage(deps, input.companyId, async (tx) => {
    const [row] = await tx
      .update(messages)
      .set({ sendError: mediaDownloadFailed, updatedAt: deps.now() })
      .where(awaitingMedia(input))
      .returning({ id: messages.id, ticketId: messages.ticketId })
    return row
  })
}

/** The media types whose message carries a file (the others are text, locations, cards, call logs). */
export const mediaTypesWithFile: readonly MediaType[] = ['image', 'audio', 'video', 'application', 'sticker']

export type AwaitingMedia = { id: number; wid: string | null; mediaType: MediaType; raw: unknown }

/**
 * A connection's messages still waiting for their file (the awaiting condition above, of a media type
 * that has one): created since `since` (older media has expired on WhatsApp's side) and last changed
 * before `settledBefore` (a download started since may still be running), oldest first, at most
 * `limit`. No index covers it: messages_company_contact_idx narrows by company (its prefix), the rest is a bounded filter.
 */
export async function findMessagesAwaitingMedia(
  deps: Pick<Deps, 'db'>,
  input: { companyId: number; whatsappId: number; since: Date; settledBefore: Date; limit: number },
): Promise<AwaitingMedia[]> {
  const rows = await deps.db
    .select({ id: messages.id, wid: messages.wid, mediaType: messages.mediaType, raw: messages.raw })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, input.companyId),
        eq(messages.whatsappId, input.whatsappId),
        inArray(messages.mediaType, [...mediaTypesWithFile]),
        isNull(messages.mediaPath),
        isNull(messages.sendError),
        eq(messages.isDeleted, false),
        gte(messages.createdAt, input.since),
        lte(messages.updatedAt, input.settledBefore),
      ),
    )
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(input.limit)
  return rows
}
