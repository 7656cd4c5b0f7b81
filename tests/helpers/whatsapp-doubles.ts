// Test doubles of the WhatsApp port: a provider factory that records what it is asked and reports the
// states a test tells it to, and an InboundSink that records what reaches it.
import type { ConnectionRef, ConnectionState, InboundMessage, InboundSink, ProviderFactory, ProviderHandlers, WhatsAppProvider } from '../../src/channels/provider.ts'

export type FakeProvider = WhatsAppProvider & {
  companyId: number
  handlers: ProviderHandlers
  calls: string[]
  /** When connect() was called (performance.now()), to check staggering. */
  connectedAt: number[]
  report(state: ConnectionState): Promise<void>
}

/**
 * Every provider the factory made, in order. connect() reports nothing unless `onConnect` says so
 * (a real adapter would show a QR code); `failConnect` makes connect() throw.
 */
export function createFakeFactory(options: { onConnect?: (provider: FakeProvider) => ConnectionState | undefined; failConnect?: boolean } = {}) {
  const providers: FakeProvider[] = []
  let sent = 0
  const factory: ProviderFactory = ({ whatsappId, companyId, handlers }) => {
    const calls: string[] = []
    const provider: FakeProvider = {
      whatsappId,
      companyId,
      handlers,
      calls,
      connectedAt: [],
      report: async (state) => {
        await handlers.onState(state)
      },
      async connect() {
        calls.push('connect')
        provider.connectedAt.push(performance.now())
        if (options.failConnect) throw new Error('fake connect failure')
        const state = options.onConnect?.(provider)
        if (state) await handlers.onState(state)
      },
      async disconnect() {
        calls.push('disconnect')
        await handlers.onState({ status: 'DISCONNECTED' })
      },
      async logout() {
        calls.push('logout')
        await handlers.onState({ status: 'DISCONNECTED', loggedOut: true })
      },
      async sendText() {
        calls.push('sendText')
        return { id: `FAKE${++sent}` }
      },
      async sendMedia() {
        calls.push('sendMedia')
        return { id: `FAKE${++sent}` }
      },
      async deleteForEveryone() {
        calls.push('deleteForEveryone')
      },
      async markRead() {
        calls.push('markRead')
      },
      async checkNumber(number) {
        return { exists: true, number }
      },
      async profilePictureUrl() {
        return undefined
      },
      async rejectCall() {
        calls.push('rejectCall')
      },
    }
    providers.push(provider)
    return provider
  }
  return {
    factory,
    providers,
    /** The providers made for one connection, oldest first. */
    of: (whatsappId: number) => providers.filter((provider) => provider.whatsappId === whatsappId),
  }
}

export type SinkRecord =
  | { kind: 'message'; connection: ConnectionRef; message: InboundMessage }
  | { kind: 'ack'; connection: ConnectionRef; id: string; ack: number }
  | { kind: 'revoke' | 'edit' | 'contact' | 'call'; connection: ConnectionRef; update: unknown }

/** An InboundSink that remembers everything; `next` waits for a record a test expects. */
export function createRecordingSink() {
  const records: SinkRecord[] = []
  const waiters: { match: (record: SinkRecord) => boolean; resolve: (record: SinkRecord) => void }[] = []
  const push = (record: SinkRecord) => {
    records.push(record)
    for (const waiter of [...waiters]) {
      if (waiter.match(record)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(record)
      }
    }
  }
  const sink: InboundSink = {
    async message(connection, message) {
      push({ kind: 'message', connection, message })
    },
    async ack(connection, update) {
      push({ kind: 'ack', connection, ...update })
    },
    async revoke(connection, update) {
      push({ kind: 'revoke', connection, update })
    },
    async edit(connection, update) {
      push({ kind: 'edit', connection, update })
    },
    async contact(connection, update) {
      push({ kind: 'contact', connection, update })
    },
    async call(connection, call) {
      push({ kind: 'call', connection, update: call })
    },
    async getMessage() {
      return undefined
    },
  }
  return {
    sink,
    records,
    next(match: (record: SinkRecord) => boolean, timeoutMs = 3000): Promise<SinkRecord> {
      const seen = records.find(match)
      if (seen) return Promise.resolve(seen)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching sink record within ${timeoutMs} ms; got ${JSON.stringify(records)}`)), timeoutMs)
        waiters.push({ match, resolve: (record) => (clearTimeout(timer), resolve(record)) })
      })
    },
  }
}
