// Recovers the inbound media whose download died with a process (jobs/inbound-media.ts): when a
// connection's session reaches CONNECTED on this instance, its messages still waiting for a file are
// handed to the media job again, rebuilt from their stored raw message by the live provider.
//
// Why whatsapp.session_changed rather than the resumer: the event follows every CONNECTED this instance
// records - the resume at boot, the adoption of a dead instance's session, a reconnect after a drop, a
// fresh QR scan - and it is recorded by the instance that owns the session, where the provider (and
// Baileys' socket, which asks the phone to re-upload expired media) lives. The resumer sees only the
// first two, and before the socket is open.
//
// A second pass follows the grace: a message the durable spool replayed at boot was stored moments ago
// (so the first pass leaves it to a download that might be running) and has no media of its own.
import type { Deps } from '../../modules/deps.ts'
import type { ConnectionRef, WhatsAppProvider } from '../provider.ts'
import { mediaRecoveryDefaults, type MediaRecoveryOptions } from '../../../jobs/inbound-media.ts'
import type { InboundPipeline } from './pipeline.ts'

export type LiveSessions = {
  isLive(connection: ConnectionRef): boolean
  providerFor(connection: ConnectionRef): WhatsAppProvider
}

/** Subscribes the recovery; answers how to stop it (the app's onStop). */
export function recoverMediaOnConnect(deps: Deps, pipeline: Pick<InboundPipeline, 'recoverMedia'>, sessions: LiveSessions, options: MediaRecoveryOptions = {}): () => void {
  const graceMs = options.graceMs ?? mediaRecoveryDefaults.graceMs
  const secondPasses = new Map<number, ReturnType<typeof setTimeout>>()
  let stopped = false

  async function pass(connection: ConnectionRef): Promise<void> {
    if (stopped || !sessions.isLive(connection)) return
    try {
      await pipeline.recoverMedia(connection, sessions.providerFor(connection), options)
    } catch (error) {
      deps.logger.error('inbound media recovery failed', { ...connection, error })
    }
  }

  const unsubscribe = deps.bus.on('whatsapp.session_changed', ({ companyId, whatsappId, session }) => {
    if (session.status !== 'CONNECTED') return
    const connection = { companyId, whatsappId }
    // Not awaited: the session's state is recorded and told without waiting for the database scan.
    void pass(connection)
    clearTimeout(secondPasses.get(whatsappId))
    const timer = setTimeout(() => {
      secondPasses.delete(whatsappId)
      void pass(connection)
    }, graceMs + 1_000)
    timer.unref?.()
    secondPasses.set(whatsappId, timer)
  })

  return () => {
    stopped = true
    unsubscribe()
    for (const timer of secondPasses.values()) clearTimeout(timer)
    secondPasses.clear()
  }
}
