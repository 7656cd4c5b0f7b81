// The simulator adapter of the WhatsApp port: the same interface as Baileys, over an in-process network.
// connect() shows a fake QR code and is "scanned" a moment later (CONNECTED); what the platform sends
// lands in the connection's outbox and is acknowledged 2 (server) then 3 (delivered) shortly after.
//
// Numbers: checkNumber says that every number of 10 to 15 digits is on WhatsApp, except those ending
// in '0000' (tests use e.g. 5511900000000 as a number that is not on WhatsApp).
import type { Logger } from '../../core/logger.ts'
import type { ConnectionState, OutgoingMedia, ProviderFactory, SendResult, WhatsAppProvider } from '../provider.ts'
import {
  later,
  phoneOf,
  journalSend,
  reloadJournal,
  pushOutbox,
  resetSession,
  simulatedMessageId,
  simulatedQrCode,
  type OutboxMedia,
  type SimulatedPhone,
  type SimulatorNetwork,
} from './network.ts'

export type SimulatorAdapterOptions = { network: SimulatorNetwork; logger?: Logger; now?: () => Date }

/** Whether the simulated WhatsApp knows this number: 10 to 15 digits, not ending in '0000'. */
export function simulatedNumberExists(digits: string): boolean {
  return /^\d{10,15}$/.test(digits) && !digits.endsWith('0000')
}

/** A handler's failure is logged, never thrown into the simulated network (as the Baileys adapter does). */
export async function deliverSafely(logger: Logger | undefined, phone: SimulatedPhone, what: string, run: () => unknown): Promise<void> {
  try {
    await run()
  } catch (error) {
    logger?.error(`simulator ${what} handler failed`, { whatsappId: phone.whatsappId, companyId: phone.companyId, error })
  }
}

function outboxMedia(media: OutgoingMedia): OutboxMedia {
  return {
    kind: media.kind,
    fileName: media.fileName,
    mimetype: media.mimetype,
    size: media.data.byteLength,
    caption: media.caption,
    voiceNote: Boolean(media.voiceNote),
  }
}

export function createSimulatorProviderFactory(options: SimulatorAdapterOptions): ProviderFactory {
  const { network, logger } = options
  const now = options.now ?? (() => new Date())

  return ({ whatsappId, companyId, handlers }) => {
    const phone = phoneOf(network, { whatsappId, companyId })
    const holdsSession = () => phone.handlers === handlers
    const report = (state: ConnectionState) =>
      deliverSafely(logger, phone, 'state', () => {
        if (holdsSession()) phone.status = state.status
        return handlers.onState(state)
      })

    function requireConnected(): void {
      if (!holdsSession() || phone.status !== 'CONNECTED') throw new Error(`simulated WhatsApp connection ${whatsappId} is not open`)
    }

    /** WhatsApp's receipts for a send: the server got it (2), then the phone did (3). */
    function acknowledge(id: string): void {
      const { ackDelayMs } = network.timings
      for (const [ack, delay] of [[2, ackDelayMs], [3, ackDelayMs * 2]] as const) {
        later(phone, delay, () => {
          const entry = phone.outbox.find((candidate) => candidate.id === id)
          if (entry && entry.ack < ack) entry.ack = ack
          void deliverSafely(logger, phone, 'ack', () => handlers.onAck({ id, ack }))
        })
      }
    }

    /** A message with this id went out already: in this process's outbox, or in the journal of an earlier one. */
    function sentBefore(id: string): boolean {
      return phone.outbox.some((candidate) => candidate.id === id) || Boolean(network.journal?.sent.get(whatsappId)?.has(id))
    }

    function send(input: { to: string; body: string; media?: OutboxMedia; quotedId?: string; isGroup?: boolean; id?: string }): SendResult {
      requireConnected()
      // WhatsApp keys a message by its id: the same id sent again is the same message, not a second one.
      // The journal still records the call (duplicate), so a test can tell that a retry was not checked first.
      if (input.id && sentBefore(input.id)) {
        if (network.journal) journalSend(network.journal, { whatsappId, id: input.id, to: input.to, body: input.body, at: now().toISOString(), duplicate: true })
        return { id: input.id }
      }
      const id = input.id ?? simulatedMessageId()
      if (network.journal) journalSend(network.journal, { whatsappId, id, to: input.to, body: input.body, at: now().toISOString() })
      pushOutbox(phone, {
        id,
        to: input.to,
        isGroup: Boolean(input.isGroup),
        body: input.body,
        media: input.media,
        quotedId: input.quotedId,
        timestamp: now(),
        ack: 1,
        deleted: false,
      })
      acknowledge(id)
      return { id }
    }

    /** Detaches this provider from the phone; its later timers do nothing. */
    function release(): boolean {
      if (!holdsSession()) return false
      resetSession(phone)
      phone.handlers = undefined
      phone.status = 'DISCONNECTED'
      return true
    }

    const provider: WhatsAppProvider = {
      whatsappId,

      async connect(connectOptions) {
        resetSession(phone)
        // Another instance may have run this connection since the journal was read (it died, or
        // handed the session over): what it sent counts as sent here too.
        if (network.journal) reloadJournal(network.journal)
        phone.handlers = handlers
        const { qrDelayMs, connectDelayMs } = network.timings
        // No OPENING report: the connection manager records OPENING itself before connecting.
        const connected = () => {
          phone.paired = true
          void report({ status: 'CONNECTED', number: phone.number, retries: 0 })
        }
        // An already paired phone comes back by itself, as Baileys does with stored credentials.
        if (phone.paired) {
          later(phone, connectDelayMs, connected)
          return
        }
        later(phone, qrDelayMs, () => {
          const state: ConnectionState = connectOptions?.pairingPhone
            ? { status: 'PAIRING', pairingCode: simulatedMessageId().slice(3, 11), retries: 1 }
            : { status: 'qrcode', qrcode: simulatedQrCode(whatsappId), retries: 1 }
          void report(state)
          later(phone, connectDelayMs, connected)
        })
      },

      async disconnect() {
        if (release()) await report({ status: 'DISCONNECTED' })
      },

      async logout() {
        const held = release()
        phone.paired = false
        if (held) await report({ status: 'DISCONNECTED', loggedOut: true })
      },

      async sendText({ to, body, quotedId, isGroup, id }) {
        return send({ to, body, quotedId, isGroup, id })
      },

      async sendMedia({ to, media, quotedId, isGroup, id }) {
        return send({ to, body: media.caption ?? '', media: outboxMedia(media), quotedId, isGroup, id })
      },

      async findSent(id) {
        return sentBefore(id) ? { id } : undefined
      },

      async deleteForEveryone({ id }) {
        requireConnected()
        const entry = phone.outbox.find((candidate) => candidate.id === id)
        if (entry) entry.deleted = true
      },

      async markRead({ to, ids }) {
        requireConnected()
        phone.reads.push({ to, ids: [...ids], timestamp: now() })
      },

      async checkNumber(number) {
        requireConnected()
        const digits = number.replace(/\D/g, '')
        return { exists: simulatedNumberExists(digits), number: digits }
      },

      async profilePictureUrl() {
        return undefined
      },

      async rejectCall({ id, from }) {
        requireConnected()
        phone.rejectedCalls.push({ id, from, timestamp: now() })
      },

      async listContacts() {
        requireConnected()
        return [...phone.contacts].map(([number, name]) => (name === undefined ? { number } : { number, name }))
      },

      // A simulated media's bytes live in memory only: after a restart they are gone.
      rebuildMedia() {
        return undefined
      },
    }
    return provider
  }
}
