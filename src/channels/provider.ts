// The WhatsApp port. Everything the product does with WhatsApp goes through this interface; the
// Baileys adapter talks to the real network, the simulator to an in-process one.
import type { ConnectionStatus } from '../../db/schema/whatsapps.ts'
import type { MediaType } from '../../db/schema/messages.ts'
import type { Deps } from '../modules/deps.ts'
import type { StoredSession } from '../modules/whatsapp/session-state.ts'

export type ConnectionState = {
  status: ConnectionStatus
  /** The QR payload to render while status is 'qrcode'. */
  qrcode?: string
  /** Pairing code to type on the phone, when pairing by code. */
  pairingCode?: string
  retries?: number
  /** The connected phone's own number (digits). */
  number?: string
  /** True when WhatsApp logged this device out: the stored keys are void. */
  loggedOut?: boolean
  /**
   * WhatsApp restricted what the number may send (Baileys' reachoutTimeLock: too many messages to
   * people who never wrote in), or lifted it (active false). Campaigns on the connection pause.
   */
  restriction?: { active: boolean; reason: string; until?: Date }
}

export type MediaDownloadOptions = {
  /** Aborted when the download took too long: the adapter stops its request. */
  signal: AbortSignal
}

/** An adapter refuses to fetch this media (a source it must not reach): retrying cannot help. */
export class MediaRefused extends Error {
  constructor(reason: string) {
    super(`media download refused: ${reason}`)
    this.name = 'MediaRefused'
  }
}

export type InboundMedia = {
  mimetype: string
  fileName?: string
  /**
   * Fetches the bytes (Baileys downloads and decrypts on demand): a stream once the transfer has
   * started, or the bytes themselves when the adapter has them already (the simulator). The caller
   * caps the size while it writes and aborts the signal on its timeout; the adapter refuses a source
   * it must not fetch (Baileys: anything but WhatsApp's media hosts) before any request.
   */
  download: (options: MediaDownloadOptions) => Promise<Uint8Array | AsyncIterable<Uint8Array>>
}

export type InboundMessage = {
  /** WhatsApp's message id: the idempotency key per connection. */
  id: string
  /** The customer: phone digits with country code, or the group id for groups. */
  from: string
  /** Sent from the connected phone itself (or an echo of our own send). */
  fromMe: boolean
  pushName?: string
  isGroup: boolean
  /** In a group, the member who wrote (digits). */
  participant?: string
  /** WhatsApp's LID of the sender when it addressed him by one. */
  lid?: string
  timestamp: Date
  body: string
  mediaType: MediaType
  media?: InboundMedia
  quotedId?: string
  /** The provider's raw message, kept for WhatsApp's retry requests. */
  raw?: unknown
}

export type ProviderHandlers = {
  onState(state: ConnectionState): void | Promise<void>
  onMessage(message: InboundMessage): void | Promise<void>
  /** 0 error, 1 sent, 2 server, 3 delivered, 4 read, 5 played. */
  onAck(update: { id: string; ack: number }): void | Promise<void>
  onRevoke(update: { id: string }): void | Promise<void>
  onEdit(update: { id: string; body: string }): void | Promise<void>
  onContact(update: { number: string; name?: string; lid?: string }): void | Promise<void>
  onCall(call: { id: string; from: string; timestamp: Date }): void | Promise<void>
  /** The stored raw message for WhatsApp's retry requests (Baileys getMessage). */
  getMessage(id: string): Promise<unknown | undefined>
}

export type OutgoingMedia = {
  kind: 'image' | 'audio' | 'video' | 'document'
  data: Uint8Array
  mimetype: string
  fileName: string
  caption?: string
  /** Audio as a voice note (push-to-talk). */
  voiceNote?: boolean
}

export type SendResult = { id: string; raw?: unknown }

/** A contact of the connected phone's WhatsApp address book. */
export type PhoneContact = { number: string; name?: string }

export interface WhatsAppProvider {
  readonly whatsappId: number
  /** Starts (or resumes) the session; progress arrives through onState. */
  connect(options?: { pairingPhone?: string }): Promise<void>
  /** Closes the socket, keeping the credentials so that connect() resumes. */
  disconnect(): Promise<void>
  /** Logs the device out and forgets the credentials. */
  logout(): Promise<void>
  /**
   * `id`: the WhatsApp message id to use instead of a fresh one. A campaign gives each contact's send a
   * deterministic id, so a send retried after a crash is the same message (WhatsApp keys messages by
   * it) and can be looked up (findSent).
   */
  sendText(input: { to: string; body: string; quotedId?: string; isGroup?: boolean; id?: string }): Promise<SendResult>
  sendMedia(input: { to: string; media: OutgoingMedia; quotedId?: string; isGroup?: boolean; id?: string }): Promise<SendResult>
  /**
   * Whether a message with this id already left through this connection, where the adapter can know:
   * the simulator keeps its outbox (on disk with SIMULATOR_OUTBOX_FILE, so it survives a kill);
   * Baileys keeps no store of sent messages, so it leaves this out and the caller relies on the echo
   * stored in the messages table and on the id being deterministic.
   */
  findSent?(id: string): Promise<SendResult | undefined>
  deleteForEveryone(input: { to: string; id: string; fromMe: boolean; isGroup?: boolean }): Promise<void>
  markRead(input: { to: string; ids: string[]; isGroup?: boolean }): Promise<void>
  /** Whether a number is on WhatsApp, and its canonical digits. */
  checkNumber(number: string): Promise<{ exists: boolean; number: string }>
  profilePictureUrl(number: string): Promise<string | undefined>
  rejectCall(call: { id: string; from: string }): Promise<void>
  /**
   * The phone's WhatsApp contacts, where the adapter can list them: the simulator does; Baileys v7
   * keeps no contact store (it only streams contacts.upsert events), so it leaves this out.
   */
  listContacts?(): Promise<PhoneContact[]>
  /**
   * The media of a stored message, rebuilt from the raw message the provider gave (InboundMessage.raw
   * as the messages module stored it): what recovers a download that died with the process. Undefined
   * when it cannot (no media in it, or the bytes lived only in the process that died: the simulator).
   */
  rebuildMedia?(raw: unknown): InboundMedia | undefined
}

export type ProviderFactory = (options: { whatsappId: number; companyId: number; handlers: ProviderHandlers }) => WhatsAppProvider

/** A connection as the WhatsApp side knows it. */
export type ConnectionRef = { companyId: number; whatsappId: number }

/**
 * Where the connection manager hands what a provider reports about customers: the inbound
 * pipeline implements it (contact -> ticket -> message, idempotent, in order per contact).
 */
export interface InboundSink {
  message(connection: ConnectionRef, message: InboundMessage): Promise<void>
  ack(connection: ConnectionRef, update: { id: string; ack: number }): Promise<void>
  revoke(connection: ConnectionRef, update: { id: string }): Promise<void>
  edit(connection: ConnectionRef, update: { id: string; body: string }): Promise<void>
  contact(connection: ConnectionRef, update: { number: string; name?: string; lid?: string }): Promise<void>
  call(connection: ConnectionRef, call: { id: string; from: string; timestamp: Date }): Promise<void>
  /** The raw stored message for WhatsApp's retry requests. */
  getMessage(connection: ConnectionRef, id: string): Promise<unknown | undefined>
}

/** The live sessions, as the sending side needs them: this instance's, and (scaled out) the other instances'. */
export interface ConnectionRegistry {
  /**
   * The connected provider of a company's connection; throws AppError ERR_WAPP_NOT_INITIALIZED if none.
   * When another instance owns the session, a provider whose calls run on that instance.
   */
  providerFor(connection: ConnectionRef): WhatsAppProvider
  /**
   * Runs a task on the instance that owns the connection's session (here, or over Redis), with its
   * live provider: a send records its WhatsApp id where the echo arrives. Without it the caller runs
   * the task itself with providerFor's provider (a registry of this process only).
   */
  runOnOwner?<Input, Output>(connection: ConnectionRef, task: OwnerTask<Input, Output>, input: Input): Promise<Output>
}

// Work that must run next to a connection's session, on the instance that owns it: a send, whose
// WhatsApp id has to be recorded inside the contact's lane of the instance where the echo and the
// receipts of that send arrive. A task is defined once, by name; the composition hands the connection
// manager the tasks it may be asked to run (ownerTasks). Every instance runs the same build, so a name
// means the same code on the owner as on the caller.
export type OwnerTask<Input, Output> = {
  readonly name: string
  /** Runs on the owner with its live provider; input and output cross instances as JSON (dates and bytes kept). */
  run(deps: Deps, provider: WhatsAppProvider, input: Input): Promise<Output>
}

/** Any task, whatever its input and output: what the owner looks up by name. */
export type AnyOwnerTask = OwnerTask<never, unknown>

export function defineOwnerTask<Input, Output>(name: string, run: (deps: Deps, provider: WhatsAppProvider, input: Input) => Promise<Output>): OwnerTask<Input, Output> {
  return { name, run }
}

/**
 * What the whatsapp module asks of the sessions (the connection manager implements it): each answers
 * the stored state right away; progress (QR, PAIRING, CONNECTED) follows as whatsapp.session_changed.
 */
export interface SessionControls {
  /** Starts (or restarts) the session. */
  start(connection: ConnectionRef, options?: { pairingPhone?: string }): Promise<StoredSession>
  /** The spec's retry: the same as start, keeping the credentials. */
  restart(connection: ConnectionRef): Promise<StoredSession>
  /** Forgets the credentials and starts again: a new QR code to scan. */
  newQr(connection: ConnectionRef): Promise<StoredSession>
  /** Forgets the credentials and pairs by code with this phone (digits with country code). */
  pairWithPhone(connection: ConnectionRef, pairingPhone: string): Promise<StoredSession>
  /** Disconnects: logs the device out and records DISCONNECTED. */
  stop(connection: ConnectionRef): Promise<StoredSession>
  /** Before a connection is deleted: ends its session and logs the device out, recording nothing. */
  remove(connection: ConnectionRef): Promise<void>
}
