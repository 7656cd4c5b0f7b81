// The Baileys adapter of the WhatsApp port: one socket per connection, credentials and keys in
// PostgreSQL, QR or pairing code, reconnect with backoff, and Baileys' events as the port's.
//
// The parts, one file each: context.ts (what one connection's parts share), socket.ts (socket
// creation and credentials), reconnect.ts (what a close leads to; the policy is reconnect-policy.ts),
// qr-pairing.ts (connection updates: QR, pairing code, CONNECTED), lid-cache.ts (LID to phone number),
// event-routing.ts (Baileys' events to the port's handlers) and sending.ts.
import type { ProviderFactory, ProviderHandlers, WhatsAppProvider } from '../provider.ts'
import { createBaileysContext, type BaileysProviderDeps } from './context.ts'
import { createEventRouter } from './event-routing.ts'
import { createLidCache } from './lid-cache.ts'
import { onlyDigits, storedMessageMedia } from './mapping.ts'
import { createConnectionUpdates } from './qr-pairing.ts'
import { createReconnector } from './reconnect.ts'
import { createBaileysSending } from './sending.ts'
import { createSocketControl } from './socket.ts'

export type { BaileysProviderDeps } from './context.ts'
export { mediaContent } from './sending.ts'

export function createBaileysProviderFactory(deps: BaileysProviderDeps): ProviderFactory {
  return ({ whatsappId, companyId, handlers }) => createBaileysProvider(deps, { whatsappId, companyId, handlers })
}

function createBaileysProvider(deps: BaileysProviderDeps, connection: { whatsappId: number; companyId: number; handlers: ProviderHandlers }): WhatsAppProvider {
  const context = createBaileysContext(deps, connection)
  const { state, log, report } = context
  const lids = createLidCache(context)
  // Each socket's event batches go to the router, built below (the parts refer to one another).
  const sockets = createSocketControl(context, lids, (sock, life, events) => router.handle(sock, life, events))
  const reconnector = createReconnector(context, sockets)
  const router = createEventRouter(context, lids, createConnectionUpdates(context, sockets, reconnector))

  return {
    whatsappId: connection.whatsappId,

    async connect(options) {
      await sockets.endQuietly(sockets.detach())
      state.stopped = false
      state.attempts = 0
      state.qrCodes = 0
      state.pairingPhone = options?.pairingPhone ? onlyDigits(options.pairingPhone) : undefined
      try {
        await sockets.open()
      } catch (error) {
        state.stopped = true
        throw error
      }
    },

    async disconnect() {
      state.stopped = true
      await sockets.endQuietly(sockets.detach())
      await report({ status: 'DISCONNECTED' })
    },

    async logout() {
      state.stopped = true
      const previous = sockets.detach()
      if (previous) {
        try {
          await previous.logout()
        } catch (error) {
          // Not connected: the phone keeps listing the device until it is removed there.
          log.warn('baileys logout failed, forgetting the credentials anyway', { error })
        }
        await sockets.endQuietly(previous)
      }
      await sockets.forgetCredentials()
      await report({ status: 'DISCONNECTED', loggedOut: true })
    },

    // A stored message's media, downloaded like a fresh one (same hosts, same decryption).
    rebuildMedia: (raw) => storedMessageMedia(raw, router.download),

    ...createBaileysSending(context, router.callerOf),
  }
}
