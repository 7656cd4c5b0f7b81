// Socket creation for one connection: the credentials loaded from PostgreSQL (behind Baileys' key
// cache), a socket made with them, its event batches handed on in order, and detaching a socket whose
// later news must be ignored.
import { Browsers, isJidBroadcast, isJidNewsletter, makeCacheableSignalKeyStore, makeWASocket, type BaileysEventMap } from '@whiskeysockets/baileys'
import { clearAuthState, loadAuthState } from './auth-state.ts'
import type { Auth, BaileysContext, Socket, SocketLife } from './context.ts'
import type { LidCache } from './lid-cache.ts'
import { storedMessageContent } from './mapping.ts'

export type SocketEvents = (sock: Socket, life: SocketLife, events: Partial<BaileysEventMap>) => Promise<void>

export type SocketControl = {
  /** Opens a new socket as the current one; its events go to `onEvents`, batch after batch. */
  open(): Promise<void>
  /** Detaches the current socket (its later events become stale) and cancels a pending reconnect. */
  detach(): Socket | undefined
  /** Ends a socket, logging a failure. */
  endQuietly(previous: Socket | undefined): Promise<void>
  /** Logged out: the stored credentials and keys go, and what was learnt with them. */
  forgetCredentials(): Promise<void>
}

export function createSocketControl(context: BaileysContext, lids: LidCache, onEvents: SocketEvents): SocketControl {
  const { deps, state, log, baileysLogger, whatsappId, handlers } = context
  const makeSocket = deps.makeSocket ?? makeWASocket

  async function currentAuth(): Promise<Auth> {
    if (!state.auth) {
      const loaded = await loadAuthState(deps.db, deps.secrets, whatsappId)
      // The cache sits in front of the table for Baileys' many small reads during a session.
      state.auth = { ...loaded, keys: makeCacheableSignalKeyStore(loaded.state.keys, baileysLogger) }
    }
    return state.auth
  }

  return {
    async open() {
      const mine = ++state.generation
      const socketAuth = await currentAuth()
      if (mine !== state.generation) return
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
      state.socket = sock
      const life: SocketLife = { generation: mine, auth: socketAuth, sawQr: false, opened: false, pairingRequested: false }
      // Batches are handled one after the other: messages of a chat keep their order.
      let queue: Promise<void> = Promise.resolve()
      sock.ev.process((events) => {
        queue = queue.then(() => onEvents(sock, life, events)).catch((error) => log.error('baileys event handling failed', { error }))
      })
    },

    detach() {
      state.generation += 1
      state.cancelReconnect?.()
      state.cancelReconnect = undefined
      const previous = state.socket
      state.socket = undefined
      return previous
    },

    async endQuietly(previous) {
      if (!previous) return
      try {
        await previous.end(undefined)
      } catch (error) {
        log.warn('baileys socket end failed', { error })
      }
    },

    async forgetCredentials() {
      const retiring = state.auth
      state.auth = undefined
      await retiring?.retire()
      await clearAuthState(deps.db, whatsappId)
      lids.clear()
    },
  }
}
