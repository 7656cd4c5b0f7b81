// The inbound pipeline: what a connection reports about customers becomes contacts, tickets and
// messages. Per message: normalise -> (media download) -> one transaction (contact, ticket, message,
// ticket counters), shared with the messages of other contacts that arrive meanwhile (inbound-writer.ts)
// -> after commit, realtime -> afterInbound hooks (the queue/chatbot flow).
// Messages of one contact run in order, different contacts concurrently (see contact-lanes.ts).
import { and, eq, lt } from 'drizzle-orm'
import { messages } from '../../../db/schema/index.ts'
import type { Deps } from '../../modules/deps.ts'
import { announceMessageUpdate, announceStoredMessage } from '../../modules/messages/announce.ts'
import { publishContact, publishTicketUpdate } from '../../modules/messages/realtime.ts'
import { getSetting } from '../../modules/settings/queries.ts'
import type { ConnectionRef, ConnectionRegistry, InboundMessage, InboundSink } from '../provider.ts'
import type { ContactLanes } from '../../core/contact-lanes.ts'
import { applyContactUpdate, refreshProfilePicture, toContactSummary, type ContactRow } from './contacts.ts'
import { contactNumberOf, normaliseInbound, onlyDigits, realName, storableText, validDate, type NormalisedMessage } from './normalise.ts'
import { createInboundWriter } from './inbound-writer.ts'
import { findMessageIdByWid, type InboundRecord, type MessageRow, type StoredInbound } from './store.ts'
import type { TicketRow } from './tickets.ts'

export type AfterInboundEvent = {
  connection: ConnectionRef
  contact: ContactRow
  ticket: TicketRow
  message: MessageRow
  /** The message opened a new ticket. */
  ticketCreated: boolean
}

/**
 * Runs after a new WhatsApp message (the customer's, or one typed on the connected phone: check
 * message.fromMe) is stored and published, inside the contact's lane: the queue/chatbot flow plugs
 * in here and may send replies through the normal sending path (the lane is re-entrant).
 */
export type AfterInboundHook = (event: AfterInboundEvent) => void | Promise<void>

export type InboundPipeline = InboundSink & {
  /** Hooks run in order after each new message; a failing hook is logged and does not stop the others. */
  readonly afterInbound: AfterInboundHook[]
  readonly lanes: ContactLanes
}

export type InboundPipelineOptions = {
  /** The live sessions: profile pictures and call rejection need them; without it both are skipped. */
  registry?: ConnectionRegistry
  /** Shared with the sending side; defaults to this process's lanes. */
  lanes?: ContactLanes
  afterInbound?: AfterInboundHook[]
}

const callBody = 'Chamada de voz/vídeo'
const rejectedCallBody = 'Chamada de voz/vídeo recusada automaticamente'

export function createInboundPipeline(deps: Deps, options: InboundPipelineOptions = {}): InboundPipeline {
  const lanes = options.lanes ?? deps.lanes
  const afterInbound = [...(options.afterInbound ?? [])]
  const { registry } = options
  // Messages stored while others are being written join them in one transaction (inbound-writer.ts).
  const writer = createInboundWriter(deps.db, deps.now)

  /** Bytes of the message's media in storage; on failure the message is kept without its file. */
  async function saveMedia(connection: ConnectionRef, message: NormalisedMessage): Promise<{ path: string; name: string } | undefined> {
    if (!message.media) return undefined
    try {
      const data = await message.media.download()
      const stored = await deps.storage.save({
        companyId: connection.companyId,
        data,
        originalName: message.media.fileName || `${message.mediaType}-${message.id}`,
        mimetype: message.media.mimetype,
      })
      return { path: stored.path, name: stored.name }
    } catch (error) {
      deps.logger.error('ERR_WAPP_DOWNLOAD_MEDIA', { ...connection, wid: message.id, mediaType: message.mediaType, error })
      return undefined
    }
  }

  function publishStored(connection: ConnectionRef, stored: StoredInbound): void {
    const { companyId } = connection
    const contact = toContactSummary(stored.contact)
    if (stored.contactChange) publishContact(deps, companyId, stored.contactChange, contact)
    // Both frames come from what the transaction returned: nothing is read back after the commit.
    const ticket = stored.ticketView
    publishTicketUpdate(deps, companyId, ticket)
    announceStoredMessage(deps, { companyId, ticket, message: stored.message, quoted: stored.quoted, contact })
    deps.bus.emit('message.created', { companyId, ticketId: ticket.id, messageId: stored.message.id, fromMe: stored.message.fromMe, source: 'whatsapp' })
  }

  async function refreshPicture(connection: ConnectionRef, contact: ContactRow): Promise<void> {
    try {
      const changed = await refreshProfilePicture(deps, registry, { connection, contact })
      if (changed) publishContact(deps, connection.companyId, 'update', toContactSummary(changed))
    } catch (error) {
      deps.logger.warn('profile picture refresh failed', { contactId: contact.id, error })
    }
  }

  async function runHooks(connection: ConnectionRef, stored: StoredInbound): Promise<void> {
    for (const hook of afterInbound) {
      try {
        await hook({ connection, contact: stored.contact, ticket: stored.ticket, message: stored.message, ticketCreated: stored.ticketCreated })
      } catch (error) {
        deps.logger.error('afterInbound hook failed', { ...connection, messageId: stored.message.id, error })
      }
    }
  }

  /** Stores the record unless its WhatsApp id is known already; publishes after the commit. */
  async function ingest(connection: ConnectionRef, record: InboundRecord, media?: () => Promise<{ path: string; name: string } | undefined>): Promise<StoredInbound | undefined> {
    // A redelivered media message is not downloaded again: the cheap check first. Without media the
    // transaction's ON CONFLICT alone recognises a redelivery (and rolls back what it did).
    if (media && (await findMessageIdByWid(deps.db, { ...connection, wid: record.wid }))) return undefined
    const file = media ? await media() : undefined
    const stored = await writer.store(connection, record, file)
    if (!stored) {
      // Lost a race with the same message: the file saved for it is nobody's.
      if (file) await deps.storage.remove(file.path)
      return undefined
    }
    try {
      publishStored(connection, stored)
    } catch (error) {
      // The message is safely stored: a client that missed the frame sees it on its next load.
      deps.logger.error('publishing an inbound message failed', { ...connection, messageId: stored.message.id, error })
    }
    await refreshPicture(connection, stored.contact)
    return stored
  }

  async function handleMessage(connection: ConnectionRef, message: NormalisedMessage): Promise<void> {
    // CheckMsgIsGroup 'enabled' (the default) means: ignore group messages.
    if (message.isGroup && (await getSetting(deps.db, connection.companyId, 'CheckMsgIsGroup')) !== 'disabled') return
    const record: InboundRecord = {
      wid: message.id,
      number: message.number,
      senderName: message.senderName,
      lid: message.lid,
      isGroup: message.isGroup,
      fromMe: message.fromMe,
      body: message.body,
      mediaType: message.mediaType,
      timestamp: message.timestamp,
      quotedId: message.quotedId,
      participant: message.participant,
      raw: message.raw,
    }
    const stored = await ingest(connection, record, message.media ? () => saveMedia(connection, message) : undefined)
    if (stored) await runHooks(connection, stored)
  }

  /** Runs in the contact's lane; while a send holds the lane, the caller is not made to wait (see lanes.sending). */
  async function inLane(connection: ConnectionRef, number: string, what: string, task: () => Promise<void>): Promise<void> {
    const running = lanes.run(connection.whatsappId, number, task).catch((error: unknown) => {
      deps.logger.error(`inbound ${what} failed`, { ...connection, number, error })
      throw error
    })
    if (lanes.sending(connection.whatsappId, number)) {
      running.catch(() => undefined)
      return
    }
    await running
  }

  async function applyAck(connection: ConnectionRef, update: { id: string; ack: number }): Promise<{ id: number; ticketId: number } | undefined> {
    const [row] = await deps.db
      .update(messages)
      .set({ ack: update.ack, updatedAt: deps.now() })
      // Acks arrive out of order (read before delivered): never lower one.
      .where(and(eq(messages.companyId, connection.companyId), eq(messages.whatsappId, connection.whatsappId), eq(messages.wid, update.id), lt(messages.ack, update.ack)))
      .returning({ id: messages.id, ticketId: messages.ticketId })
    return row
  }

  return {
    afterInbound,
    lanes,

    async message(connection, raw: InboundMessage) {
      const message = normaliseInbound(raw, deps.now)
      if (!message) return
      await inLane(connection, message.number, 'message', () => handleMessage(connection, message))
    },

    async ack(connection, update) {
      if (!update.id || !Number.isInteger(update.ack) || update.ack < 0) return
      const ack = Math.min(update.ack, 5)
      let row = await applyAck(connection, { id: update.id, ack })
      if (!row) {
        // The ack may have overtaken the send that stores this id: the send applies it when it does.
        // Trying again after remembering closes the gap where the send stored the id in between.
        lanes.rememberAck(connection.whatsappId, update.id, ack)
        row = await applyAck(connection, { id: update.id, ack })
        if (!row) return
        lanes.takeAck(connection.whatsappId, update.id)
      }
      await announceMessageUpdate(deps, connection.companyId, row)
    },

    async revoke(connection, update) {
      const [row] = await deps.db
        .update(messages)
        .set({ isDeleted: true, updatedAt: deps.now() })
        .where(and(eq(messages.companyId, connection.companyId), eq(messages.whatsappId, connection.whatsappId), eq(messages.wid, update.id), eq(messages.isDeleted, false)))
        .returning({ id: messages.id, ticketId: messages.ticketId })
      if (row) await announceMessageUpdate(deps, connection.companyId, row)
    },

    async edit(connection, update) {
      const [row] = await deps.db
        .update(messages)
        .set({ body: storableText(update.body), isEdited: true, updatedAt: deps.now() })
        .where(and(eq(messages.companyId, connection.companyId), eq(messages.whatsappId, connection.whatsappId), eq(messages.wid, update.id)))
        .returning({ id: messages.id, ticketId: messages.ticketId })
      if (row) await announceMessageUpdate(deps, connection.companyId, row)
    },

    async contact(connection, update) {
      const number = onlyDigits(update.number)
      if (!number) return
      const updated = await applyContactUpdate(deps.db, { companyId: connection.companyId, number, name: realName(update.name, number), lid: update.lid, now: deps.now() })
      if (updated) publishContact(deps, connection.companyId, 'update', toContactSummary(updated))
    },

    async call(connection, call) {
      const number = contactNumberOf(call.from, false)
      if (!number || !call.id) return
      await inLane(connection, number, 'call', async () => {
        let rejected = false
        if ((await getSetting(deps.db, connection.companyId, 'call')) === 'disabled') {
          try {
            await registry?.providerFor(connection).rejectCall({ id: call.id, from: call.from })
            rejected = Boolean(registry)
          } catch (error) {
            deps.logger.warn('call rejection failed', { ...connection, callId: call.id, error })
          }
        }
        // Every call leaves a trace in the conversation, rejected or not.
        await ingest(connection, {
          wid: call.id,
          number,
          isGroup: false,
          fromMe: false,
          body: rejected ? rejectedCallBody : callBody,
          mediaType: 'call_log',
          timestamp: validDate(call.timestamp, deps.now),
        })
      })
    },

    async getMessage(connection, id) {
      const [row] = await deps.db
        .select({ raw: messages.raw })
        .from(messages)
        .where(and(eq(messages.companyId, connection.companyId), eq(messages.whatsappId, connection.whatsappId), eq(messages.wid, id)))
        .limit(1)
      return row?.raw ?? undefined
    },
  }
}
