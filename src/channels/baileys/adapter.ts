// The Baileys adapter of the WhatsApp port: one socket per connection, credentials and keys in
// PostgreSQL, QR or pairing code, reconnect with backoff, and Baileys' events as the port's.
import {
  Browsers,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidNormalizedUser,
  makeCacheableSignalKeyStore,
  makeWASocket,
  type AnyMessageContent,
  type BaileysEventMap,
  type SignalKeyStore,
  type WABrowserDescription,
  type WAMessage,
  type WAMessageKey,
} from '@whiskeysockets/baileys'
import type { Database } from '../../../db/client.ts'
import type { Logger } from '../../core/logger.ts'
import type { ConnectionState, OutgoingMedia, ProviderFactory, ProviderHandlers, SendResult, WhatsAppProvider } from '../provider.ts'
import { createHandOver } from '../inbound/hand-over.ts'
import { clearAuthState, loadAuthState, type DatabaseAuthState } from './auth-state.ts'
import { createBaileysLogger } from './logger.ts'
import {
  backoffDelay,
  closeAction,
  DEFAULT_BACKOFF,
  DEFAULT_MAX_QR_CODES,
  defaultScheduler,
  disconnectCode,
  type BackoffPolicy,
  type Scheduler,
} from './reconnect-policy.ts'
import {
  chatJid,
  createMediaDownloader,
  jidUser,
  mapCall,
  mapContact,
  mapMessageUpdate,
  mapReceiptUpdate,
  mapWAMessage,
  normalizeLidMapping,
  onlyDigits,
  phoneToJid,
  storedMessageContent,
  storedWAMessage,
  type MappedMessage,
  type MediaDownloader,
  type MessageChange,
} from './mapping.ts'

type Socket = ReturnType<typeof makeWASocket>

export type BaileysProviderDeps = {
  db: Database
  logger: Logger
  makeSocket?: typeof makeWASocket
  now?: () => Date
  /** The jitter source, in [0, 1). */
  random?: () => number
  schedule?: Scheduler
  backoff?: Partial<BackoffPolicy>
  maxQrCodes?: number
  /** How the linked device is named on the phone. */
  browser?: WABrowserDescription
  /** Replaces Baileys' media download (tests). */
  download?: MediaDownloader
}

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

function boundedMap<V>(limit: number) {
  const map = new Map<string, V>()
  return {
    get: (key: string) => map.get(key),
    has: (key: string) => map.has(key),
    set(key: string, value: V) {
      map.delete(key)
      map.set(key, value)
      if (map.size > limit) map.delete(map.keys().next().value!)
    },
    clear: () => map.clear(),
  }
}

export function createBaileysProviderFactory(deps: BaileysProviderDeps): ProviderFactory {
  return ({ whatsappId, companyId, handlers }) => createBaileysProvider(deps, { whatsappId, companyId, handlers })
}

type Auth = DatabaseAuthState & { keys: SignalKeyStore }
/** What one socket went through, to read its close correctly. */
type SocketLife = { generation: number; auth: Auth; sawQr: boolean; opened: boolean; pairingRequested: boolean }

function createBaileysProvider(
  deps: BaileysProviderDeps,
  { whatsappId, companyId, handlers }: { whatsappId: number; companyId: number; handlers: ProviderHandlers },
): WhatsAppProvider {
  const { db } = deps
  const makeSocket = deps.makeSocket ?? makeWASocket
  const random = deps.random ?? Math.random
  const schedule = deps.schedule ?? defaultScheduler
  const backoff: BackoffPolicy = { ...DEFAULT_BACKOFF, ...deps.backoff }
  const maxQrCodes = deps.maxQrCodes ?? DEFAULT_MAX_QR_CODES
  const fields = { whatsappId, companyId }
  const baileysLogger = createBaileysLogger(deps.logger, { ...fields, component: 'baileys' })
  const log = {
    info: (message: string, extra?: Record<string, unknown>) => deps.logger.info(message, { ...fields, ...extra }),
    warn: (message: string, extra?: Record<string, unknown>) => deps.logger.warn(message, { ...fields, ...extra }),
    error: (message: string, extra?: Record<string, unknown>) => deps.logger.error(message, { ...fields, ...extra }),
  }

  let auth: Auth | undefined
  let socket: Socket | undefined
  /** Bumped whenever the current socket is replaced or closed on purpose: older sockets' news is stale. */
  let generation = 0
  /** True once disconnect/logout (or a terminal close) said not to come back. */
  let stopped = true
  let attempts = 0
  let qrCodes = 0
  let pairingPhone: string | undefined
  let cancelReconnect: (() => void) | undefined

  // WhatsApp addresses more and more people by LID; these turn a LID back into a phone number.
  const phoneByLid = boundedMap<string>(50_000)
  const callerByCallId = boundedMap<string>(1_000)
  // Baileys reports a revoke or edit twice (the protocol message and the message update).
  const seenChanges = recentKeys(5_000)
  // Messages are handed to the platform without waiting for each one's processing (its per-contact
  // lanes keep a chat's order), at most the hand-over's limit in flight: backpressure on this socket.
  const handOver = createHandOver()
  // A receipt, delete or edit of a message still being processed waits for it to be stored.
  const processing = new Map<string, Promise<void>>()

  const phoneForLid = (lid: string) => phoneByLid.get(lid)
  const rememberLid = (mapping: { lid: string; pn: string }) => {
    const normalized = normalizeLidMapping(mapping)
    if (normalized) phoneByLid.set(normalized.lid, normalized.pn)
  }

  const download: MediaDownloader =
    deps.download ??
    createMediaDownloader({
      logger: baileysLogger,
      // Expired media is re-requested from the phone through whichever socket is current then.
      reuploadRequest: (message) => {
        if (!socket) throw new Error('WhatsApp connection is not open')
        return socket.updateMediaMessage(message)
      },
    })

  /** A handler's failure is logged, never thrown back into Baileys' event loop. */
  async function safely(what: string, run: () => unknown): Promise<void> {
    try {
      await run()
    } catch (error) {
      log.error(`baileys ${what} handler failed`, { error })
    }
  }

  const report = (state: ConnectionState) => safely('state', () => handlers.onState(state))

  async function currentAuth(): Promise<Auth> {
    if (!auth) {
      const loaded = await loadAuthState(db, whatsappId)
      // The cache sits in front of the table for Baileys' many small reads during a session.
      auth = { ...loaded, keys: makeCacheableSignalKeyStore(loaded.state.keys, baileysLogger) }
    }
    return auth
  }

  async function forgetCredentials(): Promise<void> {
    const retiring = auth
    auth = undefined
    await retiring?.retire()
    await clearAuthState(db, whatsappId)
    phoneByLid.clear()
  }

  /** Detaches the current socket (its later events become stale) and cancels a pending reconnect. */
  function detach(): Socket | undefined {
    generation += 1
    cancelReconnect?.()
    cancelReconnect = undefined
    const previous = socket
    socket = undefined
    return previous
  }

  async function endQuietly(previous: Socket | undefined): Promise<void> {
    if (!previous) return
    try {
      await previous.end(undefined)
    } catch (error) {
      log.warn('baileys socket end failed', { error })
    }
  }

  async function openSocket(): Promise<void> {
    const mine = ++generation
    const socketAuth = await currentAuth()
    if (mine !== generation) return
    const sock = makeSocket({
      auth: { creds: socketAuth.state.creds, keys: socketAuth.keys },
      logger: baileysLogger,
      browser: deps.browser ?? Browsers.ubuntu('Chrome'),
      markOnlineOnConnect: false,
      syncFullHistory: false,
      // Status updates, channels and broadcast lists are not conversations: skip decrypting them.
      shouldIgnoreJid: (jid) => Boolean(isJidBroadcast(jid) || isJidNewsletter(jid)),
      getMessage: async (key) => {
        if (!key.id) return undefined
        try {
          return storedMessageContent(await handlers.getMessage(key.id))
        } catch (error) {
          log.warn('baileys getMessage failed', { error, id: key.id })
          return undefined
        }
      },
    })
    socket = sock
    const life: SocketLife = { generation: mine, auth: socketAuth, sawQr: false, opened: false, pairingRequested: false }
    // Batches are handled one after the other: messages of a chat keep their order.
    let queue: Promise<void> = Promise.resolve()
    sock.ev.process((events) => {
      queue = queue.then(() => handleEvents(sock, life, events)).catch((error) => log.error('baileys event handling failed', { error }))
    })
  }

  function scheduleReconnect(): void {
    attempts += 1
    const delay = backoffDelay(attempts, backoff, random)
    log.info('baileys reconnecting', { attempt: attempts, delay })
    cancelReconnect = schedule(() => {
      cancelReconnect = undefined
      void reopen()
    }, delay)
    void report({ status: 'OPENING', retries: attempts })
  }

  async function reopen(): Promise<void> {
    if (stopped) return
    try {
      await openSocket()
    } catch (error) {
      log.error('baileys socket could not be created', { error })
      if (!stopped) scheduleReconnect()
    }
  }

  async function handleEvents(sock: Socket, life: SocketLife, events: Partial<BaileysEventMap>): Promise<void> {
    const connection = events['connection.update']
    if (connection) await onConnectionUpdate(sock, life, connection)
    const creds = events['creds.update']
    if (creds) {
      Object.assign(life.auth.state.creds, creds)
      await safely('creds', () => life.auth.saveCreds())
    }
    const mapping = events['lid-mapping.update']
    if (mapping) rememberLid(mapping)
    for (const pair of events['messaging-history.set']?.lidPnMappings ?? []) rememberLid(pair)
    for (const contact of [...(events['contacts.upsert'] ?? []), ...(events['contacts.update'] ?? [])]) {
      if (contact.id && contact.phoneNumber && isLidUser(contact.id)) rememberLid({ lid: contact.id, pn: contact.phoneNumber })
      if (contact.id && contact.lid && isPnUser(contact.id)) rememberLid({ lid: contact.lid, pn: contact.id })
      await learnPhone(sock, contact.id, contact.phoneNumber)
      const mapped = mapContact(contact, phoneForLid)
      if (mapped) await safely('contact', () => handlers.onContact(mapped))
    }
    const upsert = events['messages.upsert']
    if (upsert && (upsert.type === 'notify' || upsert.type === 'append')) {
      for (const raw of upsert.messages) {
        await learnSender(sock, raw.key)
        const mapped = mapWAMessage(raw, { download, phoneForLid, now: deps.now })
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
      const mapped = mapCall(call, phoneForLid)
      if (!mapped) continue
      // Rejecting needs the caller's JID exactly as WhatsApp sent it (it may be a LID).
      callerByCallId.set(call.id, call.from)
      await safely('call', () => handlers.onCall(mapped))
    }
  }

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

  /** Asks Baileys' own LID store (persisted with the keys) for a person who came without a phone number. */
  async function learnPhone(sock: Socket, jid: string | null | undefined, alternate: string | null | undefined): Promise<void> {
    if (!jid || !isLidUser(jid) || isPnUser(alternate ?? undefined)) return
    const lid = jidNormalizedUser(jid)
    if (phoneByLid.has(lid)) return
    try {
      const pn = await sock.signalRepository?.lidMapping?.getPNForLID(lid)
      if (pn) rememberLid({ lid, pn })
    } catch (error) {
      log.warn('baileys LID lookup failed', { error, lid })
    }
  }

  const learnSender = (sock: Socket, key: WAMessageKey) =>
    isJidGroup(key.remoteJid ?? undefined) ? learnPhone(sock, key.participant, key.participantAlt) : learnPhone(sock, key.remoteJid, key.remoteJidAlt)

  async function onConnectionUpdate(sock: Socket, life: SocketLife, update: BaileysEventMap['connection.update']): Promise<void> {
    if (life.generation !== generation) return
    if (update.qr) await onQr(sock, life, update.qr)
    if (life.generation !== generation) return
    if (update.connection === 'connecting') await report({ status: 'OPENING', retries: attempts })
    if (update.connection === 'open') {
      life.opened = true
      attempts = 0
      qrCodes = 0
      pairingPhone = undefined
      const number = jidUser(sock.user?.id ?? life.auth.state.creds.me?.id)
      log.info('baileys connected', { number })
      await report({ status: 'CONNECTED', number, retries: 0 })
    }
    if (update.connection === 'close') await onClose(sock, life, disconnectCode(update.lastDisconnect?.error))
  }

  async function onQr(sock: Socket, life: SocketLife, qr: string): Promise<void> {
    life.sawQr = true
    qrCodes += 1
    if (qrCodes > maxQrCodes) {
      log.info('baileys QR not scanned, giving up', { qrCodes: maxQrCodes })
      stopped = true
      await endQuietly(detach())
      await report({ status: 'TIMEOUT', retries: maxQrCodes })
      return
    }
    if (pairingPhone && !life.auth.state.creds.registered) {
      // The socket asks for a QR only once it is ready for a login: the moment to ask for a code.
      if (life.pairingRequested) return
      life.pairingRequested = true
      try {
        const pairingCode = await sock.requestPairingCode(pairingPhone)
        await report({ status: 'PAIRING', pairingCode, retries: qrCodes })
        return
      } catch (error) {
        log.warn('baileys pairing code request failed, showing the QR instead', { error })
      }
    }
    await report({ status: 'qrcode', qrcode: qr, retries: qrCodes })
  }

  async function onClose(sock: Socket, life: SocketLife, code: number | undefined): Promise<void> {
    if (socket === sock) socket = undefined
    if (stopped) return
    log.info('baileys connection closed', { code })
    switch (closeAction(code, life)) {
      case 'logged-out':
        stopped = true
        await forgetCredentials()
        await report({ status: 'DISCONNECTED', loggedOut: true })
        return
      case 'stop':
        stopped = true
        await report({ status: 'DISCONNECTED' })
        return
      case 'reopen-now':
        await reopen()
        return
      case 'backoff':
        scheduleReconnect()
    }
  }

  function requireSocket(): Socket {
    if (!socket) throw new Error(`WhatsApp connection ${whatsappId} is not open`)
    return socket
  }

  async function storedRaw(id: string): Promise<unknown> {
    try {
      return await handlers.getMessage(id)
    } catch (error) {
      log.warn('baileys stored message lookup failed', { error, id })
      return undefined
    }
  }

  /** The message to quote: the stored original when there is one, else a stub carrying its id. */
  async function quotedMessage(jid: string, quotedId: string): Promise<WAMessage> {
    const stored = await storedRaw(quotedId)
    const full = storedWAMessage(stored)
    if (full) {
      // A one-to-one quote must point at this chat, even if the original came addressed by LID.
      return isJidGroup(jid) ? full : { ...full, key: { ...full.key, remoteJid: jid } }
    }
    return { key: { remoteJid: jid, id: quotedId, fromMe: false }, message: storedMessageContent(stored) ?? { conversation: '' } }
  }

  /** In groups, receipts and deletes of others' messages name the member who wrote them. */
  async function participantOf(id: string): Promise<string | undefined> {
    return storedWAMessage(await storedRaw(id))?.key.participant ?? undefined
  }

  async function send(jid: string, content: AnyMessageContent, quotedId: string | undefined): Promise<SendResult> {
    const sock = requireSocket()
    const quoted = quotedId ? await quotedMessage(jid, quotedId) : undefined
    const sent = await sock.sendMessage(jid, content, quoted ? { quoted } : undefined)
    const id = sent?.key.id
    if (!id) throw new Error('WhatsApp returned no message id')
    return { id, raw: sent }
  }

  return {
    whatsappId,

    async connect(options) {
      await endQuietly(detach())
      stopped = false
      attempts = 0
      qrCodes = 0
      pairingPhone = options?.pairingPhone ? onlyDigits(options.pairingPhone) : undefined
      try {
        await openSocket()
      } catch (error) {
        stopped = true
        throw error
      }
    },

    async disconnect() {
      stopped = true
      await endQuietly(detach())
      await report({ status: 'DISCONNECTED' })
    },

    async logout() {
      stopped = true
      const previous = detach()
      if (previous) {
        try {
          await previous.logout()
        } catch (error) {
          // Not connected: the phone keeps listing the device until it is removed there.
          log.warn('baileys logout failed, forgetting the credentials anyway', { error })
        }
        await endQuietly(previous)
      }
      await forgetCredentials()
      await report({ status: 'DISCONNECTED', loggedOut: true })
    },

    sendText({ to, body, quotedId, isGroup }) {
      return send(chatJid(to, isGroup), { text: body }, quotedId)
    },

    sendMedia({ to, media, quotedId, isGroup }) {
      return send(chatJid(to, isGroup), mediaContent(media), quotedId)
    },

    async deleteForEveryone({ to, id, fromMe, isGroup }) {
      const sock = requireSocket()
      const jid = chatJid(to, isGroup)
      const key: WAMessageKey = { remoteJid: jid, id, fromMe }
      if (isJidGroup(jid) && !fromMe) {
        const participant = await participantOf(id)
        if (participant) key.participant = participant
      }
      await sock.sendMessage(jid, { delete: key })
    },

    async markRead({ to, ids, isGroup }) {
      const sock = requireSocket()
      const jid = chatJid(to, isGroup)
      const group = isJidGroup(jid)
      const keys: WAMessageKey[] = []
      for (const id of ids) {
        const key: WAMessageKey = { remoteJid: jid, id, fromMe: false }
        const participant = group ? await participantOf(id) : undefined
        if (participant) key.participant = participant
        keys.push(key)
      }
      if (keys.length) await sock.readMessages(keys)
    },

    async checkNumber(number) {
      const sock = requireSocket()
      const digits = onlyDigits(number)
      const [found] = (await sock.onWhatsApp(phoneToJid(digits))) ?? []
      if (!found?.exists) return { exists: false, number: digits }
      return { exists: true, number: jidUser(found.jid) || digits }
    },

    async profilePictureUrl(number) {
      if (!socket) return undefined
      try {
        return await socket.profilePictureUrl(number.includes('@') ? number : phoneToJid(number), 'image')
      } catch {
        // No picture, or hidden by the contact's privacy settings.
        return undefined
      }
    },

    async rejectCall({ id, from }) {
      const sock = requireSocket()
      await sock.rejectCall(id, callerByCallId.get(id) ?? phoneToJid(from))
    },
  }
}

/** The Baileys content for an outgoing media. */
export function mediaContent(media: OutgoingMedia): AnyMessageContent {
  const data = Buffer.from(media.data.buffer, media.data.byteOffset, media.data.byteLength)
  const caption = media.caption ? { caption: media.caption } : {}
  switch (media.kind) {
    case 'image':
      return { image: data, mimetype: media.mimetype, ...caption }
    case 'video':
      return { video: data, mimetype: media.mimetype, ...caption }
    case 'audio':
      return { audio: data, mimetype: media.mimetype, ptt: Boolean(media.voiceNote) }
    case 'document':
      return { document: data, mimetype: media.mimetype, fileName: media.fileName, ...caption }
  }
}
