// What the parts of one Baileys connection share: its identity and handlers, its logs, the current
// socket and its credentials, and the counters of the reconnect and QR policies. One per connection.
import type { makeWASocket, SignalKeyStore, WABrowserDescription } from '@whiskeysockets/baileys'
import type { Database } from '../../../db/client.ts'
import type { Logger } from '../../core/logger.ts'
import type { ConnectionState, ProviderHandlers } from '../provider.ts'
import type { DatabaseAuthState } from './auth-state.ts'
import { createBaileysLogger } from './logger.ts'
import type { SecretBox } from '../../core/crypto/secret-box.ts'
import type { MediaDownloader } from './mapping.ts'
import type { BackoffPolicy, Scheduler } from './reconnect-policy.ts'

export type BaileysProviderDeps = {
  db: Database
  /** Seals the credentials and Signal keys at rest (SECRETS_KEY): they are the linked device itself. */
  secrets: SecretBox
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
  /** Replaces the media download (tests). */
  download?: MediaDownloader
  /** Hosts inbound media may come from (MEDIA_ALLOWED_HOSTS); WhatsApp's by default. */
  mediaHosts?: readonly string[]
}

/** WhatsApp's media hosts: Baileys' default mmg.whatsapp.net and the CDN hosts WhatsApp hands out. */
export const defaultMediaHosts: readonly string[] = ['mmg.whatsapp.net', '*.whatsapp.net']

export type Socket = ReturnType<typeof makeWASocket>
export type Auth = DatabaseAuthState & { keys: SignalKeyStore }
/** What one socket went through, to read its close correctly. */
export type SocketLife = { generation: number; auth: Auth; sawQr: boolean; opened: boolean; pairingRequested: boolean }

type Log = (message: string, extra?: Record<string, unknown>) => void

export type BaileysContext = {
  readonly whatsappId: number
  readonly companyId: number
  readonly handlers: ProviderHandlers
  readonly deps: BaileysProviderDeps
  readonly log: { info: Log; warn: Log; error: Log }
  /** The logger handed to Baileys itself. */
  readonly baileysLogger: ReturnType<typeof createBaileysLogger>
  /** The mutable side: what the socket, the reconnect and the QR policies are at. */
  readonly state: {
    auth: Auth | undefined
    socket: Socket | undefined
    /** Bumped whenever the current socket is replaced or closed on purpose: older sockets' news is stale. */
    generation: number
    /** True once disconnect/logout (or a terminal close) said not to come back. */
    stopped: boolean
    attempts: number
    qrCodes: number
    pairingPhone: string | undefined
    cancelReconnect: (() => void) | undefined
  }
  /** A handler's failure is logged, never thrown back into Baileys' event loop. */
  safely(what: string, run: () => unknown): Promise<void>
  /** Tells the connection manager a state. */
  report(state: ConnectionState): Promise<void>
}

export function createBaileysContext(
  deps: BaileysProviderDeps,
  { whatsappId, companyId, handlers }: { whatsappId: number; companyId: number; handlers: ProviderHandlers },
): BaileysContext {
  const fields = { whatsappId, companyId }
  const log = {
    info: (message: string, extra?: Record<string, unknown>) => deps.logger.info(message, { ...fields, ...extra }),
    warn: (message: string, extra?: Record<string, unknown>) => deps.logger.warn(message, { ...fields, ...extra }),
    error: (message: string, extra?: Record<string, unknown>) => deps.logger.error(message, { ...fields, ...extra }),
  }

  async function safely(what: string, run: () => unknown): Promise<void> {
    try {
      await run()
    } catch (error) {
      log.error(`baileys ${what} handler failed`, { error })
    }
  }

  return {
    whatsappId,
    companyId,
    handlers,
    deps,
    log,
    baileysLogger: createBaileysLogger(deps.logger, { ...fields, component: 'baileys' }),
    state: { auth: undefined, socket: undefined, generation: 0, stopped: true, attempts: 0, qrCodes: 0, pairingPhone: undefined, cancelReconnect: undefined },
    safely,
    report: (state) => safely('state', () => handlers.onState(state)),
  }
}
