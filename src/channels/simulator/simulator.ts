// The simulator as the rest of the product sees it: the provider factory (provider 'simulator') and
// the control surface that plays the customers' side: a customer writes in, WhatsApp reports a receipt,
// and what the platform sent can be read back. Used by the demo, the tests and the benchmarks.
import type { MediaType } from '../../../db/schema/messages.ts'
import { AppError } from '../../core/errors.ts'
import type { Logger } from '../../core/logger.ts'
import type { InboundMessage, PhoneContact, ProviderFactory, ProviderHandlers } from '../provider.ts'
import { createHandOver, type HandOver } from '../inbound/hand-over.ts'
import { createSimulatorProviderFactory, deliverSafely } from './adapter.ts'
import {
  createSimulatorNetwork,
  resetSession,
  simulatedMessageId,
  type OutboxEntry,
  type OutboxRead,
  type RejectedCall,
  type SimulatedPhone,
  type SimulatorNetwork,
  type SimulatorTimings,
} from './network.ts'

export type SimulatedInbound = {
  /** The customer's number (digits with country code), or the group's id when `participant` is given. */
  from: string
  /** The customer's WhatsApp name (pushName). */
  name?: string
  body?: string
  /** The WhatsApp id of the message this one replies to. */
  quotedId?: string
  /** WhatsApp's id for the message; generated when absent. Sending one id twice simulates a redelivery. */
  id?: string
  media?: { data: Uint8Array; mimetype: string; fileName?: string }
  /** In a group: the member who wrote (digits). Makes the message a group message. */
  participant?: string
  /** Written on the connected phone itself (WhatsApp echoes it to the platform). */
  fromMe?: boolean
  timestamp?: Date
}

export type Simulator = {
  /** The ProviderFactory of provider 'simulator'. */
  factory: ProviderFactory
  readonly timings: SimulatorTimings
  /** Changes the delays (tests: ~50 ms); applies to what is scheduled from now on. */
  configure(timings: Partial<SimulatorTimings>): void
  /** A customer writes in: the message reaches the platform as Baileys would deliver it. Returns its id. */
  simulateInbound(whatsappId: number, input: SimulatedInbound): Promise<string>
  /** WhatsApp reports a receipt for a message (e.g. 4: the customer read it). */
  simulateAck(whatsappId: number, update: { id: string; ack: number }): Promise<void>
  /** The customer's phone removes the linked device: the connection is logged out. */
  simulateLogout(whatsappId: number): Promise<void>
  /** WhatsApp restricts (or frees) what the number may send, as Baileys reports its reach-out limit. */
  simulateRestriction(whatsappId: number, restriction: { active: boolean; until?: Date }): Promise<void>
  /** What the platform sent through the connection, oldest first. */
  outbox(whatsappId: number): OutboxEntry[]
  reads(whatsappId: number): OutboxRead[]
  rejectedCalls(whatsappId: number): RejectedCall[]
  /** Whether the simulated connection is open (status CONNECTED) in this process. */
  isConnected(whatsappId: number): boolean
  /** Saves contacts in the phone's address book (what listContacts reports); a known number gets the new name. */
  addPhoneContacts(whatsappId: number, contacts: PhoneContact[]): void
}

/** The message type WhatsApp would give a media of this mimetype. */
export function mediaTypeOfMimetype(mimetype: string): MediaType {
  const type = mimetype.split(';')[0]!.trim().toLowerCase()
  if (type === 'text/vcard' || type === 'text/x-vcard') return 'vcard'
  if (type.startsWith('image/')) return 'image'
  if (type.startsWith('audio/')) return 'audio'
  if (type.startsWith('video/')) return 'video'
  return 'application'
}

/** outboxFile: the outbox journal (SIMULATOR_OUTBOX_FILE), so what was sent survives the process (network.ts). */
export function createSimulator(options: { network?: SimulatorNetwork; logger?: Logger; now?: () => Date; outboxFile?: string } = {}): Simulator {
  const network = options.network ?? createSimulatorNetwork({}, { journalPath: options.outboxFile })
  const { logger } = options
  const now = options.now ?? (() => new Date())

  /** The phone of an open simulated connection and its session's handlers, or ERR_WAPP_NOT_INITIALIZED. */
  function connectedPhone(whatsappId: number): { phone: SimulatedPhone; handlers: ProviderHandlers } {
    const phone = network.phones.get(whatsappId)
    if (!phone?.handlers || phone.status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED')
    return { phone, handlers: phone.handlers }
  }

  // One hand-over per phone: the bounded in-flight window of its inbound messages.
  const handOvers = new WeakMap<SimulatedPhone, HandOver>()
  function handOverOf(phone: SimulatedPhone): HandOver {
    let handOver = handOvers.get(phone)
    if (!handOver) {
      handOver = createHandOver()
      handOvers.set(phone, handOver)
    }
    return handOver
  }

  return {
    factory: createSimulatorProviderFactory({ network, logger, now }),
    get timings() {
      return network.timings
    },
    configure(timings) {
      Object.assign(network.timings, timings)
    },

    async simulateInbound(whatsappId, input) {
      const { phone, handlers } = connectedPhone(whatsappId)
      const id = input.id ?? simulatedMessageId()
      const media = input.media
      const message: InboundMessage = {
        id,
        from: input.from,
        fromMe: Boolean(input.fromMe),
        pushName: input.name,
        isGroup: input.participant !== undefined,
        participant: input.participant,
        timestamp: input.timestamp ?? now(),
        body: input.body ?? '',
        mediaType: media ? mediaTypeOfMimetype(media.mimetype) : 'chat',
        media: media && {
          mimetype: media.mimetype,
          fileName: media.fileName,
          download: async () => media.data,
        },
        quotedId: input.quotedId,
      }
      // A customer who writes in is in the phone's WhatsApp contacts from then on (a group is not).
      if (!message.isGroup && !message.fromMe) {
        const number = input.from.replace(/\D/g, '')
        if (number && !phone.contacts.has(number)) phone.contacts.set(number, input.name)
      }
      // Handed over in order per connection, as WhatsApp delivers, without waiting for the earlier
      // messages to be processed (the pipeline keeps each contact's order); the caller learns when
      // the platform took this one.
      const { done } = await handOverOf(phone).start(() => deliverSafely(logger, phone, 'message', () => handlers.onMessage(message)))
      await done
      return id
    },

    async simulateAck(whatsappId, update) {
      const { phone, handlers } = connectedPhone(whatsappId)
      const entry = phone.outbox.find((candidate) => candidate.id === update.id)
      if (entry && entry.ack < update.ack) entry.ack = update.ack
      await deliverSafely(logger, phone, 'ack', () => handlers.onAck(update))
    },

    async simulateLogout(whatsappId) {
      const { phone, handlers } = connectedPhone(whatsappId)
      resetSession(phone)
      phone.handlers = undefined
      phone.status = 'DISCONNECTED'
      phone.paired = false
      await deliverSafely(logger, phone, 'state', () => handlers.onState({ status: 'DISCONNECTED', loggedOut: true }))
    },

    async simulateRestriction(whatsappId, restriction) {
      const { phone, handlers } = connectedPhone(whatsappId)
      await deliverSafely(logger, phone, 'state', () => handlers.onState({ status: 'CONNECTED', restriction: { ...restriction, reason: 'reachout_timelock' } }))
    },

    outbox: (whatsappId) => [...(network.phones.get(whatsappId)?.outbox ?? [])],
    reads: (whatsappId) => [...(network.phones.get(whatsappId)?.reads ?? [])],
    rejectedCalls: (whatsappId) => [...(network.phones.get(whatsappId)?.rejectedCalls ?? [])],
    isConnected: (whatsappId) => {
      const phone = network.phones.get(whatsappId)
      return Boolean(phone?.handlers && phone.status === 'CONNECTED')
    },
    addPhoneContacts(whatsappId, contacts) {
      const { phone } = connectedPhone(whatsappId)
      // Kept as given: a test may list a JID (…@s.whatsapp.net, a group's …@g.us) as Baileys would.
      for (const contact of contacts) {
        const number = contact.number.trim()
        if (number) phone.contacts.set(number, contact.name)
      }
    },
  }
}
