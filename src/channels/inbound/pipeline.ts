// The inbound pipeline: what a connection reports about customers becomes contacts, tickets and
// messages. Per message: normalise -> one transaction of the messages module
// (contact, ticket, message, ticket counters: modules/messages/inbound-store.ts), shared with the
// messages of other contacts that arrive meanwhile (inbound-writer.ts) -> after commit, the domain
// events (contact, ticket, message.created) -> the media, if any, to a job (jobs/inbound-media.ts,
// never in the lane) -> afterInbound hooks (the queue/chatbot flow). Messages of one contact run in
// order, different contacts concurrently (see contact-lanes.ts). The data is the modules': no query is written here.
import { toContactSummary, type ContactRow } from '../../modules/contacts/contact-row.ts'
import { refreshProfilePicture, updateContactFromWhatsApp } from '../../modules/contacts/inbound-contacts.ts'
import { onlyDigits, realName } from '../../modules/contacts/number.ts'
import type { Deps } from '../../modules/deps.ts'
import type { DomainEvents } from '../../modules/events.ts'
import type { Transaction } from '../../../db/client.ts'
import { changeMessage, storedMessageView } from '../../modules/messages/announce.ts'
import type { AfterInboundHook, AfterInboundHooks } from '../../modules/messages/after-inbound.ts'
import { findMessageIdByWid, type InboundRecord, type StoredInbound } from '../../modules/messages/inbound-store.ts'
import { isAwaitingMedia } from '../../modules/messages/inbound-media.ts'
import { applyEdit, applyInboundAck, findRawMessage, markRevoked } from '../../modules/messages/inbound-updates.ts'
import { storableText } from '../../modules/messages/storable.ts'
import { getSetting } from '../../modules/settings/service.ts'
import { recordCampaignAck } from '../../modules/campaigns/service.ts'
import type { ConnectionRef, ConnectionRegistry, InboundMessage, InboundSink } from '../provider.ts'
import type { ContactLanes } from '../../core/contact-lanes.ts'
import { contactNumberOf, normaliseInbound, validDate, type NormalisedMessage } from './normalise.ts'
import { createInboundWriter } from './inbound-writer.ts'
import { startInboundMedia, type InboundMediaFetcher, type InboundMediaOptions } from '../../../jobs/inbound-media.ts'
import { createInProcessQueue, type JobQueue } from '../../../jobs/queue.ts'

export type { AfterInboundEvent, AfterInboundHook } from '../../modules/messages/after-inbound.ts'

export type InboundPipeline = InboundSink &
  AfterInboundHooks & {
    readonly lanes: ContactLanes
    /** Fetches again the media of a connection's messages whose download died with a process (jobs/inbound-media.ts). */
    recoverMedia: InboundMediaFetcher['recover']
  }

export type InboundPipelineOptions = {
  /** The live sessions: profile pictures and call rejection need them; without it both are skipped. */
  registry?: ConnectionRegistry
  /** Shared with the sending side; defaults to this process's lanes. */
  lanes?: ContactLanes
  afterInbound?: AfterInboundHook[]
  /** Where the media job runs: this process's in-process queue by default (see jobs/inbound-media.ts). */
  mediaQueue?: JobQueue
  /** Retries of a media download (tests shorten them). */
  media?: InboundMediaOptions
}

const callBody = 'Chamada de voz/vídeo'
const rejectedCallBody = 'Chamada de voz/vídeo recusada automaticamente'

export function createInboundPipeline(deps: Deps, options: InboundPipelineOptions = {}): InboundPipeline {
  const lanes = options.lanes ?? deps.lanes
  const afterInbound = [...(options.afterInbound ?? [])]
  const { registry } = options
  // Messages stored while others are being written join them in one transaction (inbound-writer.ts).
  // Their events are staged in the storing transaction (the webhooks' outbox commits with the message).
  const writer = createInboundWriter(deps.db, deps.now, { onStored: (tx, stored) => stageStored(tx, stored) })

  // The media is fetched by a job after the message is stored (jobs/inbound-media.ts): a download the
  // sender controls (slow, huge, never answering) must not hold the contact's lane.
  const mediaFetcher = startInboundMedia(deps, options.mediaQueue ?? createInProcessQueue({ logger: deps.logger }), options.media)

  /** Hands a just-stored message's media to the job; the message shows ERR_WAPP_DOWNLOAD_MEDIA if it fails. */
  async function fetchMediaLater(connection: ConnectionRef, message: NormalisedMessage, messageId: number): Promise<void> {
    if (!message.media) return
    const fileName = message.media.fileName || `${message.mediaType}-${message.id}`
    try {
      await mediaFetcher.enqueue({ ...connection, messageId, media: message.media, fileName })
    } catch (error) {
      deps.logger.error('ERR_WAPP_DOWNLOAD_MEDIA', { ...connection, wid: message.id, mediaType: message.mediaType, error })
    }
  }

  /**
   * A media message delivered again (WhatsApp's redelivery, a replay after a restart) whose file never
   * arrived: the download that was under way may have died with the process, so it gets another try.
   */
  async function fetchMissingMediaAgain(connection: ConnectionRef, message: NormalisedMessage): Promise<void> {
    if (!message.media) return
    const messageId = await findMessageIdByWid(deps.db, { ...connection, wid: message.id })
    if (messageId && (await isAwaitingMedia(deps, { companyId: connection.companyId, messageId }))) await fetchMediaLater(connection, message, messageId)
  }

  type InboundEvents = {
    contact: { name: 'contact.created' | 'contact.updated'; payload: DomainEvents['contact.created'] } | undefined
    ticket: DomainEvents['ticket.created']
    message: DomainEvents['message.created']
  }

  /** The events of a stored message. Their views come from what the transaction returned: nothing is read back. */
  function inboundEvents(stored: StoredInbound): InboundEvents {
    const { companyId, fromMe } = stored.message
    const contact = toContactSummary(stored.contact)
    const ticket = stored.ticketView
    const message = storedMessageView(deps, { message: stored.message, quoted: stored.quoted, contact })
    return {
      contact: stored.contactChange ? { name: stored.contactChange === 'create' ? 'contact.created' : 'contact.updated', payload: { companyId, contact } } : undefined,
      // The customer (or our phone) moved the ticket; nobody of the company did.
      ticket: { companyId, ticket, userId: null },
      message: { companyId, ticketId: ticket.id, messageId: message.id, fromMe, source: 'whatsapp', message, ticket, contact },
    }
  }

  /** The events staged in the storing transaction (their committing listeners ran there), by stored message. */
  const stagedEvents = new WeakMap<StoredInbound, InboundEvents>()

  async function stageStored(tx: Transaction, stored: StoredInbound): Promise<void> {
    const events = inboundEvents(stored)
    stagedEvents.set(stored, events)
    if (events.contact) await deps.bus.stage(tx, events.contact.name, events.contact.payload)
    await deps.bus.stage(tx, stored.ticketCreated ? 'ticket.created' : 'ticket.updated', events.ticket)
    await deps.bus.stage(tx, 'message.created', events.message)
  }

  /** After the commit: the same payloads, to every listener. */
  async function emitStored(stored: StoredInbound): Promise<void> {
    const events = stagedEvents.get(stored) ?? inboundEvents(stored)
    if (events.contact) await deps.bus.emit(events.contact.name, events.contact.payload)
    await deps.bus.emit(stored.ticketCreated ? 'ticket.created' : 'ticket.updated', events.ticket)
    await deps.bus.emit('message.created', events.message)
  }

  async function refreshPicture(connection: ConnectionRef, contact: ContactRow): Promise<void> {
    try {
      const changed = await refreshProfilePicture(deps, registry, { connection, contact })
      if (changed) await deps.bus.emit('contact.updated', changed)
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

  /** Stores the record unless its WhatsApp id is known already (ON CONFLICT); tells it after the commit. */
  async function ingest(connection: ConnectionRef, record: InboundRecord): Promise<StoredInbound | undefined> {
    const stored = await writer.store(connection, record, undefined)
    if (!stored) return undefined
    try {
      await emitStored(stored)
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
    const stored = await ingest(connection, record)
    // Ingest lag: WhatsApp's timestamp to stored (seconds resolution on WhatsApp's side; a resend is not counted).
    if (stored) deps.metrics.ingestLag.observe(Math.max(0, deps.now().getTime() - message.timestamp.getTime()) / 1000)
    if (!stored) {
      await fetchMissingMediaAgain(connection, message)
      return
    }
    await fetchMediaLater(connection, message, stored.message.id)
    await runHooks(connection, stored)
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

  // Each change commits with its message.updated staged (announce.ts changeMessage), and is told after.
  const applyAck = (connection: ConnectionRef, update: { id: string; ack: number }) =>
    changeMessage(deps, connection.companyId, (tx) => applyInboundAck(tx, connection, { wid: update.id, ack: update.ack, now: deps.now() }))

  return {
    afterInbound,
    lanes,
    recoverMedia: (connection, provider, recovery) => mediaFetcher.recover(connection, provider, recovery),

    async message(connection, raw: InboundMessage) {
      const message = normaliseInbound(raw, deps.now)
      if (!message) return
      // Echoes of what this side sent are counted by the send path, not here.
      if (!message.fromMe) deps.metrics.countInbound(connection.whatsappId)
      await inLane(connection, message.number, 'message', () => handleMessage(connection, message))
    },

    async ack(connection, update) {
      if (!update.id || !Number.isInteger(update.ack) || update.ack < 0) return
      const ack = Math.min(update.ack, 5)
      const applied = await applyAck(connection, { id: update.id, ack })
      if (!applied) {
        // A campaign message is not a ticket message: its receipt goes to its shipping row.
        if (await recordCampaignAck(deps, connection, { id: update.id, ack })) return
        // The ack may have overtaken the send that stores this id: the send applies it when it does.
        // Trying again after remembering closes the gap where the send stored the id in between.
        lanes.rememberAck(connection.whatsappId, update.id, ack)
        if (!(await applyAck(connection, { id: update.id, ack }))) return
        lanes.takeAck(connection.whatsappId, update.id)
      }
    },

    async revoke(connection, update) {
      await changeMessage(deps, connection.companyId, (tx) => markRevoked(tx, connection, { wid: update.id, now: deps.now() }))
    },

    async edit(connection, update) {
      const body = storableText(update.body)
      await changeMessage(deps, connection.companyId, (tx) => applyEdit(tx, connection, { wid: update.id, body, now: deps.now() }))
    },

    async contact(connection, update) {
      const number = onlyDigits(update.number)
      if (!number) return
      const updated = await updateContactFromWhatsApp(deps, { companyId: connection.companyId, number, name: realName(update.name, number), lid: update.lid, now: deps.now() })
      if (updated) await deps.bus.emit('contact.updated', updated)
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
      return findRawMessage(deps.db, connection, id)
    },
  }
}
