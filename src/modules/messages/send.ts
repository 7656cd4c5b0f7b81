// Sending to a ticket's contact, for agents and the external API alike. Per message: the row is
// stored first (ack 0, no WhatsApp id), then the provider is called, then the row gets the id and
// ack 1 - or keeps ack 0 with sendError, so a failure is shown and never lost. The whole send holds
// the contact's lane, so the echo WhatsApp reports of our own message waits until the row has its
// id and is then recognised by the unique (whatsapp_id, wid) index instead of being stored twice.
// Scaled out, the echo and the receipts arrive on the instance that owns the session: the provider
// call and the recording of the id run there, in that instance's lane (deliverTask), wherever the
// request came in.
import { and, eq, ne, sql } from 'drizzle-orm'
import { messages, tickets, type MediaType } from '../../../db/schema/index.ts'
import { defineOwnerTask, type ConnectionRegistry, type OutgoingMedia, type SendResult, type WhatsAppProvider } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import type { DomainEvents } from '../events.ts'
import { AppError, isUniqueViolation } from '../../core/errors.ts'
import type { StoredMedia } from '../../core/storage/storage.ts'
import { emitMessagesCreated, emitTicketView, findContactSummary, stageMessageCreated } from './announce.ts'
import { lastMessagePreview } from './inbound-store.ts'
import type { MessageView } from './model.ts'
import { storableRaw } from './storable.ts'

export type OutgoingItem = { body: string; media?: StoredMedia }

export type SendTarget = {
  companyId: number
  ticketId: number
  whatsappId: number | null
  contactId: number
  /** The contact's number (or group id): where WhatsApp delivers. */
  number: string
  isGroup: boolean
}

export type SendOutcome = { messages: MessageView[]; failedIds: number[] }

const maxErrorLength = 500

/** The connection's live provider; a missing or disconnected one is ERR_WAPP_NOT_INITIALIZED. */
export function providerOf(registry: ConnectionRegistry, target: { companyId: number; whatsappId: number | null }): WhatsAppProvider {
  if (target.whatsappId === null) throw new AppError('ERR_WAPP_NOT_INITIALIZED')
  try {
    return registry.providerFor({ companyId: target.companyId, whatsappId: target.whatsappId })
  } catch (error) {
    if (error instanceof AppError) throw error
    throw new AppError('ERR_WAPP_NOT_INITIALIZED')
  }
}

function mediaKind(mediaType: MediaType): OutgoingMedia['kind'] {
  if (mediaType === 'image' || mediaType === 'audio' || mediaType === 'video') return mediaType
  return 'document'
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return (text || 'send failed').slice(0, maxErrorLength)
}

/** What the provider is asked for one item: built where the request came in (the file is read there). */
type SendCall = { kind: 'text'; input: Parameters<WhatsAppProvider['sendText']>[0] } | { kind: 'media'; input: Parameters<WhatsAppProvider['sendMedia']>[0] }

async function sendCallOf(deps: Deps, target: SendTarget, item: OutgoingItem, quotedId: string | undefined): Promise<SendCall> {
  const common = { to: target.number, isGroup: target.isGroup, ...(quotedId ? { quotedId } : {}) }
  if (!item.media) return { kind: 'text', input: { ...common, body: item.body } }
  const file = await deps.storage.read(item.media.path)
  if (!file) throw new Error('the stored file is missing')
  const media: OutgoingMedia = {
    kind: mediaKind(item.media.mediaType),
    data: new Uint8Array(await file.arrayBuffer()),
    mimetype: item.media.mimetype,
    fileName: item.media.name,
    ...(item.body ? { caption: item.body } : {}),
    // Recorded audio arrives as Ogg/Opus: WhatsApp plays it as a voice note.
    ...(item.media.mimetype === 'audio/ogg' ? { voiceNote: true } : {}),
  }
  return { kind: 'media', input: { ...common, media } }
}

/** Gives the stored row WhatsApp's id; an echo that somehow got stored on its own is merged into it. */
async function recordSent(deps: Deps, target: SendTarget & { whatsappId: number }, messageId: number, result: SendResult): Promise<void> {
  const lanes = deps.lanes
  const set = () =>
    deps.db
      .update(messages)
      .set({ wid: result.id, ack: sql`greatest(${messages.ack}, 1)`, sendError: null, raw: storableRaw(result.raw) ?? null })
      .where(and(eq(messages.companyId, target.companyId), eq(messages.id, messageId)))
  try {
    await set()
  } catch (error) {
    if (!isUniqueViolation(error, 'messages_whatsapp_wid_unique')) throw error
    deps.logger.warn('the echo of a sent message was stored separately; merging', { ...target, messageId, wid: result.id })
    await deps.db
      .delete(messages)
      .where(and(eq(messages.companyId, target.companyId), eq(messages.whatsappId, target.whatsappId), eq(messages.wid, result.id), ne(messages.id, messageId)))
    await set()
  }
  // An ack that overtook this update (delivered before we stored the id) is applied now.
  const early = lanes.takeAck(target.whatsappId, result.id)
  if (early !== undefined) {
    await deps.db
      .update(messages)
      .set({ ack: sql`greatest(${messages.ack}, ${early})` })
      .where(and(eq(messages.companyId, target.companyId), eq(messages.id, messageId)))
  }
}

type DeliverInput = { target: SendTarget & { whatsappId: number }; messageId: number; call: SendCall }

/**
 * One stored message out through the session, on the instance that owns it: the provider call and
 * the recording of WhatsApp's id hold the contact's lane there, where the echo of this send and its
 * early receipts arrive (re-entrant when that is this instance, inside sendToContact's lane).
 */
export const deliverTask = defineOwnerTask('messages.deliver', async (deps: Deps, provider: WhatsAppProvider, input: DeliverInput): Promise<{ id: string }> => {
  const { target, messageId, call } = input
  return deps.lanes.send(target.whatsappId, target.number, async () => {
    const connection = String(target.whatsappId)
    const result = await (call.kind === 'text' ? provider.sendText(call.input) : provider.sendMedia(call.input)).catch((error: unknown) => {
      deps.metrics.outboundMessages.inc({ connection, result: 'failed' })
      throw error
    })
    deps.metrics.outboundMessages.inc({ connection, result: 'sent' })
    await recordSent(deps, target, messageId, result)
    return { id: result.id }
  })
})

/**
 * Sends the items in order (a quoted message applies to the first) and tells them (message.created). Resolves
 * with every stored message and the ids of those WhatsApp did not take; throws only when nothing
 * could be attempted (no live connection).
 */
export async function sendToContact(
  deps: Deps,
  registry: ConnectionRegistry,
  input: { target: SendTarget; items: OutgoingItem[]; userId: number | null; quoted?: { id: number; wid: string | null }; source: 'platform' | 'api' },
): Promise<SendOutcome> {
  const { target } = input
  const provider = providerOf(registry, target)
  const whatsappId = target.whatsappId as number
  const lanes = deps.lanes
  const storedIds: number[] = []
  const failedIds: number[] = []
  const staged = new Map<number, DomainEvents['message.created']>()

  await lanes.send(whatsappId, target.number, async () => {
    for (const [index, item] of input.items.entries()) {
      const quoted = index === 0 ? input.quoted : undefined
      // The row and its message.created (staged) in one transaction: the webhooks' outbox commits with it.
      const { messageId, event } = await deps.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(messages)
          .values({
            companyId: target.companyId,
            ticketId: target.ticketId,
            contactId: target.contactId,
            whatsappId,
            userId: input.userId,
            body: item.body,
            mediaType: item.media?.mediaType ?? 'chat',
            mediaPath: item.media?.path ?? null,
            mediaName: item.media?.name ?? null,
            fromMe: true,
            read: true,
            ack: 0,
            quotedMsgId: quoted?.id ?? null,
            createdAt: deps.now(),
            updatedAt: deps.now(),
          })
          .returning({ id: messages.id })
        const messageId = row!.id
        const event = await stageMessageCreated(deps, tx, { companyId: target.companyId, ticketId: target.ticketId, contactId: target.contactId, messageId, source: input.source })
        return { messageId, event }
      })
      if (event) staged.set(messageId, event)
      storedIds.push(messageId)
      try {
        const call = await sendCallOf(deps, target, item, quoted?.wid ?? undefined)
        const delivery: DeliverInput = { target: { ...target, whatsappId }, messageId, call }
        if (registry.runOnOwner) await registry.runOnOwner({ companyId: target.companyId, whatsappId }, deliverTask, delivery)
        else await deliverTask.run(deps, provider, delivery)
      } catch (error) {
        deps.logger.warn('ERR_SENDING_WAPP_MSG', { companyId: target.companyId, ticketId: target.ticketId, messageId, error })
        failedIds.push(messageId)
        await deps.db
          .update(messages)
          .set({ sendError: errorText(error) })
          .where(and(eq(messages.companyId, target.companyId), eq(messages.id, messageId)))
      }
    }
    const last = input.items[input.items.length - 1]
    if (last) {
      await deps.db
        .update(tickets)
        .set({ lastMessage: lastMessagePreview({ body: last.body, mediaName: last.media?.name }), lastMessageAt: deps.now(), updatedAt: deps.now() })
        .where(and(eq(tickets.companyId, target.companyId), eq(tickets.id, target.ticketId)))
    }
  })

  // The ticket's last message moved: its update first, then the messages (clients find the ticket).
  const ticket = await emitTicketView(deps, { companyId: target.companyId, ticketId: target.ticketId, userId: input.userId })
  if (!ticket) return { messages: [], failedIds }
  const contact = await findContactSummary(deps.db, target.companyId, target.contactId)
  const views = await emitMessagesCreated(deps, { companyId: target.companyId, ticket, messageIds: storedIds, contact, source: input.source, staged })
  return { messages: views, failedIds }
}
