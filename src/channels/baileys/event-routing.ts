// Baileys' event batches as the port's events: credentials saved, LIDs learnt, contacts, customers'
// messages (handed over without waiting for each one's processing), their updates (acks, revokes,
// edits), receipts and calls. A receipt, revoke or edit of a message still being processed waits for it.
import { isLidUser, isPnUser, type BaileysEventMap } from '@whiskeysockets/baileys'
import { createHandOver } from '../inbound/hand-over.ts'
import { defaultMediaHosts, type BaileysContext, type Socket, type SocketLife } from './context.ts'
import { boundedMap, type LidCache } from './lid-cache.ts'
import {
  createMediaDownloader,
  mapCall,
  mapContact,
  mapMessageUpdate,
  mapReceiptUpdate,
  mapWAMessage,
  type MappedMessage,
  type MediaDownloader,
  type MessageChange,
} from './mapping.ts'
import type { ConnectionUpdates } from './qr-pairing.ts'
import type { SocketEvents } from './socket.ts'

/** Remembers the last `limit` keys; `add` says whether the key is new. */
function recentKeys(limit: number) {
  const keys = new Set<string>()
  return {
    add(key: string): boolean {
      if (keys.has(key)) return false
      keys.add(key)
      if (keys.size > limit) keys.delete(keys.values().next().value!)
      return true
    },
  }
}

export type EventRouter = {
  /** Handles one batch of a socket's events (batches come one after the other). */
  handle: SocketEvents
  /** The caller's JID exactly as WhatsApp sent it with the call (it may be a LID). */
  callerOf(callId: string): string | undefined
  /** The media download messages are mapped with (checked hosts, current socket for re-uploads). */
  download: MediaDownloader
}

export function createEventRouter(context: BaileysContext, lids: LidCache, onConnectionUpdate: ConnectionUpdates): EventRouter {
  const { deps, state, handlers, safely } = context
  const callerByCallId = boundedMap<string>(1_000)
  // Baileys reports a revoke or edit twice (the protocol message and the message update).
  const seenChanges = recentKeys(5_000)
  // Messages are handed to the platform without waiting for each one's processing (its per-contact
  // lanes keep a chat's order), at most the hand-over's limit in flight: backpressure on this socket.
  const handOver = createHandOver()
  // A receipt, delete or edit of a message still being processed waits for it to be stored.
  const processing = new Map<string, Promise<void>>()

  const download: MediaDownloader =
    deps.download ??
    createMediaDownloader({
      allowedHosts: deps.mediaHosts ?? defaultMediaHosts,
      // Expired media is re-requested from the phone through whichever socket is current then.
      reuploadRequest: (message) => {
        if (!state.socket) throw new Error('WhatsApp connection is not open')
        return state.socket.updateMediaMessage(message)
      },
    })

  async function handMessage(message: Extract<MappedMessage, { kind: 'message' }>): Promise<void> {
    const { id } = message.message
    const { done } = await handOver.start(() => safely('message', () => handlers.onMessage(message.message)))
    processing.set(id, done)
    void done.then(() => {
      if (processing.get(id) === done) processing.delete(id)
    })
  }

  async function dispatch(change: MappedMessage | MessageChange): Promise<void> {
    if (change.kind !== 'message') await processing.get(change.id)
    switch (change.kind) {
      case 'message':
        return handMessage(change)
      case 'ack':
        return safely('ack', () => handlers.onAck({ id: change.id, ack: change.ack }))
      case 'revoke':
        if (seenChanges.add(`revoke:${change.id}`)) await safely('revoke', () => handlers.onRevoke({ id: change.id }))
        return
      case 'edit':
        if (seenChanges.add(`edit:${change.id}:${change.body}`)) await safely('edit', () => handlers.onEdit({ id: change.id, body: change.body }))
        return
    }
  }

  async function handle(sock: Socket, life: SocketLife, events: Partial<BaileysEventMap>): Promise<void> {
    const connection = events['connection.update']
    if (connection) await onConnectionUpdate(sock, life, connection)
    const creds = events['creds.update']
    if (creds) {
      Object.assign(life.auth.state.creds, creds)
      await safely('creds', () => life.auth.saveCreds())
    }
    const mapping = events['lid-mapping.update']
    if (mapping) lids.remember(mapping)
    for (const pair of events['messaging-history.set']?.lidPnMappings ?? []) lids.remember(pair)
    for (const contact of [...(events['contacts.upsert'] ?? []), ...(events['contacts.update'] ?? [])]) {
      if (contact.id && contact.phoneNumber && isLidUser(contact.id)) lids.remember({ lid: contact.id, pn: contact.phoneNumber })
      if (contact.id && contact.lid && isPnUser(contact.id)) lids.remember({ lid: contact.lid, pn: contact.id })
      await lids.learnPhone(sock, contact.id, contact.phoneNumber)
      const mapped = mapContact(contact, lids.phoneForLid)
      if (mapped) await safely('contact', () => handlers.onContact(mapped))
    }
    const upsert = events['messages.upsert']
    if (upsert && (upsert.type === 'notify' || upsert.type === 'append')) {
      for (const raw of upsert.messages) {
        await lids.learnSender(sock, raw.key)
        const mapped = mapWAMessage(raw, { download, phoneForLid: lids.phoneForLid, now: deps.now })
        if (mapped) await dispatch(mapped)
      }
    }
    for (const entry of events['messages.update'] ?? []) {
      for (const change of mapMessageUpdate(entry)) await dispatch(change)
    }
    for (const entry of events['message-receipt.update'] ?? []) {
      const ack = mapReceiptUpdate(entry)
      if (!ack) continue
      await processing.get(ack.id)
      await safely('ack', () => handlers.onAck(ack))
    }
    for (const call of events.call ?? []) {
      const mapped = mapCall(call, lids.phoneForLid)
      if (!mapped) continue
      // Rejecting needs the caller's JID exactly as WhatsApp sent it (it may be a LID).
      callerByCallId.set(call.id, call.from)
      await safely('call', () => handlers.onCall(mapped))
    }
  }

  return { handle, callerOf: (callId) => callerByCallId.get(callId), download }
}
