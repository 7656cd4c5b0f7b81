// A socket that closed on its own: logged out (credentials forgotten), stopped for good (banned,
// replaced), reopened at once (restart asked, QR run out), or reopened after a backoff with jitter.
// The decisions are reconnect-policy.ts's; this applies them to the connection.
import type { BaileysContext, Socket, SocketLife } from './context.ts'
import { backoffDelay, closeAction, DEFAULT_BACKOFF, defaultScheduler, type BackoffPolicy } from './reconnect-policy.ts'
import type { SocketControl } from './socket.ts'

export type Reconnector = {
  /** What the close of this socket (with Baileys' status code) leads to. */
  onClose(sock: Socket, life: SocketLife, code: number | undefined): Promise<void>
}

export function createReconnector(context: BaileysContext, sockets: SocketControl): Reconnector {
  const { deps, state, log, report } = context
  const random = deps.random ?? Math.random
  const schedule = deps.schedule ?? defaultScheduler
  const backoff: BackoffPolicy = { ...DEFAULT_BACKOFF, ...deps.backoff }

  function scheduleReconnect(): void {
    state.attempts += 1
    const delay = backoffDelay(state.attempts, backoff, random)
    log.info('baileys reconnecting', { attempt: state.attempts, delay })
    state.cancelReconnect = schedule(() => {
      state.cancelReconnect = undefined
      void reopen()
    }, delay)
    void report({ status: 'OPENING', retries: state.attempts })
  }

  /** Opens a socket again unless stopped; a failure to create one is retried after a backoff. */
  async function reopen(): Promise<void> {
    if (state.stopped) return
    try {
      await sockets.open()
    } catch (error) {
      log.error('baileys socket could not be created', { error })
      if (!state.stopped) scheduleReconnect()
    }
  }

  return {
    async onClose(sock, life, code) {
      if (state.socket === sock) state.socket = undefined
      if (state.stopped) return
      log.info('baileys connection closed', { code })
      switch (closeAction(code, life)) {
        case 'logged-out':
          state.stopped = true
          await sockets.forgetCredentials()
          await report({ status: 'DISCONNECTED', loggedOut: true })
          return
        case 'stop':
          state.stopped = true
          await report({ status: 'DISCONNECTED' })
          return
        case 'reopen-now':
          await reopen()
          return
        case 'backoff':
          scheduleReconnect()
      }
    },
  }
}
