// The socket's connection updates: a QR code to show (or, when pairing by phone, the code to type on
// it instead), at most maxQrCodes of them before giving up with TIMEOUT; then CONNECTED with the
// phone's number; a close goes to the reconnect policy.
import type { BaileysEventMap } from '@whiskeysockets/baileys'
import type { BaileysContext, Socket, SocketLife } from './context.ts'
import { jidUser } from './mapping.ts'
import { DEFAULT_MAX_QR_CODES, disconnectCode } from './reconnect-policy.ts'
import type { Reconnector } from './reconnect.ts'
import type { SocketControl } from './socket.ts'

export type ConnectionUpdates = (sock: Socket, life: SocketLife, update: BaileysEventMap['connection.update']) => Promise<void>

export function createConnectionUpdates(context: BaileysContext, sockets: SocketControl, reconnector: Reconnector): ConnectionUpdates {
  const { state, log, report } = context
  const maxQrCodes = context.deps.maxQrCodes ?? DEFAULT_MAX_QR_CODES

  async function onQr(sock: Socket, life: SocketLife, qr: string): Promise<void> {
    life.sawQr = true
    state.qrCodes += 1
    if (state.qrCodes > maxQrCodes) {
      log.info('baileys QR not scanned, giving up', { qrCodes: maxQrCodes })
      state.stopped = true
      await sockets.endQuietly(sockets.detach())
      await report({ status: 'TIMEOUT', retries: maxQrCodes })
      return
    }
    if (state.pairingPhone && !life.auth.state.creds.registered) {
      // The socket asks for a QR only once it is ready for a login: the moment to ask for a code.
      if (life.pairingRequested) return
      life.pairingRequested = true
      try {
        const pairingCode = await sock.requestPairingCode(state.pairingPhone)
        await report({ status: 'PAIRING', pairingCode, retries: state.qrCodes })
        return
      } catch (error) {
        log.warn('baileys pairing code request failed, showing the QR instead', { error })
      }
    }
    await report({ status: 'qrcode', qrcode: qr, retries: state.qrCodes })
  }

  return async (sock, life, update) => {
    if (life.generation !== state.generation) return
    if (update.qr) await onQr(sock, life, update.qr)
    if (life.generation !== state.generation) return
    if (update.connection === 'connecting') await report({ status: 'OPENING', retries: state.attempts })
    // WhatsApp's reach-out limit (Baileys' reachoutTimeLock): reported with the open connection's status.
    const lock = update.reachoutTimeLock
    if (lock && life.opened) {
      await report({
        status: 'CONNECTED',
        restriction: { active: Boolean(lock.isActive), reason: `reachout_timelock${lock.enforcementType ? `:${String(lock.enforcementType)}` : ''}`, ...(lock.timeEnforcementEnds ? { until: lock.timeEnforcementEnds } : {}) },
      })
    }
    if (update.connection === 'open') {
      life.opened = true
      state.attempts = 0
      state.qrCodes = 0
      state.pairingPhone = undefined
      const number = jidUser(sock.user?.id ?? life.auth.state.creds.me?.id)
      log.info('baileys connected', { number })
      await report({ status: 'CONNECTED', number, retries: 0 })
    }
    if (update.connection === 'close') await reconnector.onClose(sock, life, disconnectCode(update.lastDisconnect?.error))
  }
}
