// The sessions this instance runs: opening one through its provider, recording every state it reports
// (in order), forwarding what it reports about customers to the InboundSink, and ending it (replaced,
// stopped, logged out, or its lease lost). The caller holds the connection's lease and lock.
import { AppError } from '../../core/errors.ts'
import { findStoredSession, type StoredSession } from '../../modules/whatsapp/session-state.ts'
import type { ConnectionRef, ConnectionState, ProviderHandlers, WhatsAppProvider } from '../provider.ts'
import type { SessionLeases } from './leases.ts'
import { noHandlers, notInitialized, providerUnavailable, type Session, type SessionRuntime } from './runtime.ts'
import { recordState } from './state-recorder.ts'

export type LocalSessions = {
  /** Opens the session (replacing one running here); the caller holds the connection's lease. */
  start(ref: ConnectionRef, connectOptions?: { pairingPhone?: string }): Promise<StoredSession>
  /** Ends the session here (logging the device out), or forgets the stored credentials when none runs here. */
  remove(ref: ConnectionRef, providerName: string | undefined): Promise<void>
  /** The connection's stored session, or ERR_NO_WAPP_FOUND. */
  storedOrFail(ref: ConnectionRef): Promise<StoredSession>
  /** The lease was found lost: another instance runs this session now, so ours stops without recording anything. */
  onLeaseLost(whatsappId: number): void
}

export function createLocalSessions(runtime: SessionRuntime, leases: SessionLeases): LocalSessions {
  const { deps, live, factories, sink, quietly } = runtime
  const { logger } = deps

  function retire(session: Session): void {
    session.retired = true
    if (live.get(session.ref.whatsappId) === session) live.delete(session.ref.whatsappId)
  }

  async function applyState(session: Session, state: ConnectionState): Promise<void> {
    if (session.retired) return
    const previous = { status: session.status, number: session.number }
    session.status = state.status
    if (state.number) session.number = state.number
    const row = await recordState(runtime, session.ref, state, previous)
    if (!row) {
      // The connection was deleted meanwhile: nothing to report to, nothing to keep open.
      retire(session)
      await quietly('disconnect', session.ref, () => session.provider.disconnect())
      leases.releaseWhenIdle(session.ref)
      return
    }
    // DISCONNECTED (logged out, banned, replaced) and TIMEOUT (QR never scanned): the provider stopped itself.
    if (state.status === 'DISCONNECTED' || state.status === 'TIMEOUT') {
      retire(session)
      leases.releaseWhenIdle(session.ref)
    }
  }

  function onState(session: Session, state: ConnectionState): Promise<void> {
    if (session.retired) return Promise.resolve()
    const write = session.writes
      .then(() => applyState(session, state))
      .catch((error: unknown) => logger.error('whatsapp session state could not be recorded', { ...session.ref, status: state.status, error }))
    session.writes = write
    return write
  }

  function handlersFor(session: Session): ProviderHandlers {
    const { ref } = session
    // Customers' messages are forwarded even from a session being replaced: WhatsApp would not send them again.
    return {
      onState: (state) => onState(session, state),
      onMessage: (message) => sink.message(ref, message),
      onAck: (update) => sink.ack(ref, update),
      onRevoke: (update) => sink.revoke(ref, update),
      onEdit: (update) => sink.edit(ref, update),
      onContact: (update) => sink.contact(ref, update),
      onCall: (call) => sink.call(ref, call),
      getMessage: (id) => sink.getMessage(ref, id),
    }
  }

  /** Ends the live session of a connection, if this instance runs one. */
  async function endLive(ref: ConnectionRef, how: 'disconnect' | 'logout'): Promise<boolean> {
    const session = live.get(ref.whatsappId)
    if (!session) return false
    retire(session)
    await quietly(how, ref, () => (how === 'logout' ? session.provider.logout() : session.provider.disconnect()))
    await session.writes
    return true
  }

  /** Logs out a connection that has no live session here: its stored credentials are forgotten. */
  async function forgetCredentials(ref: ConnectionRef, providerName: string): Promise<void> {
    const factory = factories[providerName]
    if (!factory) return
    const transient = factory({ whatsappId: ref.whatsappId, companyId: ref.companyId, handlers: noHandlers })
    await quietly('logout', ref, () => transient.logout())
  }

  async function storedOrFail(ref: ConnectionRef): Promise<StoredSession> {
    const stored = await findStoredSession(deps.db, ref)
    if (!stored) throw new AppError('ERR_NO_WAPP_FOUND')
    return stored
  }

  return {
    async start(ref, connectOptions) {
      if (runtime.closed) throw notInitialized()
      const stored = await storedOrFail(ref)
      const factory = factories[stored.provider]
      if (!factory) throw providerUnavailable(stored.provider)
      await endLive(ref, 'disconnect')
      const session: Session = { ref, provider: undefined as unknown as WhatsAppProvider, status: stored.status, number: stored.number, retired: false, writes: Promise.resolve() }
      session.provider = factory({ whatsappId: ref.whatsappId, companyId: ref.companyId, handlers: handlersFor(session) })
      live.set(ref.whatsappId, session)
      // Recorded before connecting, so the screen shows the spinner at once (the provider reports from there).
      await onState(session, { status: 'OPENING', retries: 0 })
      try {
        await session.provider.connect(connectOptions)
      } catch (error) {
        logger.error('whatsapp session could not start', { ...ref, provider: stored.provider, error })
        retire(session)
        await session.writes
        await recordState(runtime, ref, { status: 'DISCONNECTED' }, { status: session.status, number: session.number })
        throw notInitialized()
      }
      await session.writes
      return (await findStoredSession(deps.db, ref)) ?? stored
    },

    async remove(ref, providerName) {
      const ended = await endLive(ref, 'logout')
      if (!ended && providerName) await forgetCredentials(ref, providerName)
    },

    storedOrFail,

    onLeaseLost(whatsappId) {
      const session = live.get(whatsappId)
      if (!session) return
      retire(session)
      void quietly('disconnect after losing the lease', session.ref, () => session.provider.disconnect())
    },
  }
}
