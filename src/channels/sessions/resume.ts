// Resuming at boot, and adopting: the connections that should be live (CONNECTED, OPENING, PAIRING or
// showing a QR) and that no instance runs are started here, a few at a time, so that a restart does
// not open every socket in the same second. Scaled out, every instance keeps sweeping for the
// sessions whose owner died (status says live, lease free).
import { AppError } from '../../core/errors.ts'
import { findResumableSessions, findStoredSession, RESUMABLE_STATUSES } from '../../modules/whatsapp/session-state.ts'
import type { ConnectionRef } from '../provider.ts'
import type { SessionLeases } from './leases.ts'
import type { LocalSessions } from './local-sessions.ts'
import type { SessionRuntime } from './runtime.ts'
import { recordState } from './state-recorder.ts'

/** Between two connections resumed at boot (or adopted). */
export const DEFAULT_RESUME_STAGGER_MS = 500

export type SessionResumer = {
  /** One pass: the connections that should be live and whose lease is free (or ours) are started here. */
  sweep(): Promise<number>
  /** Scaled out: sweeps again every adoption interval, until stop(). */
  scheduleAdoption(): void
  /** Sweeps within a moment: another instance released a session (a graceful stop), take it now. */
  sweepSoon(): void
  stop(): void
}

export function createSessionResumer(
  runtime: SessionRuntime,
  leases: SessionLeases,
  sessions: LocalSessions,
  options: { staggerMs: number; adoptIntervalMs: number },
): SessionResumer {
  const { deps, cluster, live, directory, me } = runtime
  const { logger } = deps
  const { ownership } = cluster
  let adoptTimer: ReturnType<typeof setTimeout> | undefined
  /** Adoption was scheduled (resumeAll ran), a sweep is running, one more was asked for meanwhile. */
  let scheduled = false
  let sweeping = false
  let wantedSoon = false

  /** Takes a connection that should be live and runs nowhere: lease first, then the status again, then start. */
  function takeOver(ref: ConnectionRef): Promise<void> {
    return runtime.exclusive(ref.whatsappId, async () => {
      if (runtime.closed || live.has(ref.whatsappId)) return
      if (!(await leases.claim(ref))) return
      try {
        // Stopped by someone between the sweep and now: nothing to resume.
        const stored = await findStoredSession(deps.db, ref)
        if (!stored || !RESUMABLE_STATUSES.includes(stored.status)) return
        await sessions.start(ref)
        // The instance that ran it before may have died after storing messages (or changing tickets)
        // of this connection and before publishing their frames, which then reach no socket and no
        // replay: the company's clients reload their lists (modules/whatsapp/session-realtime.ts).
        await deps.bus.emit('whatsapp.session_adopted', { companyId: ref.companyId, whatsappId: ref.whatsappId })
      } catch (error) {
        logger.warn('whatsapp session could not resume', { ...ref, error })
        // A failed connect is recorded by start; a provider without an adapter here (the simulator
        // switched off since) is recorded as DISCONNECTED now, not left "connected".
        const unavailable = error instanceof AppError && error.code === 'ERR_VALIDATION'
        if (unavailable && !runtime.closed) await recordState(runtime, ref, { status: 'DISCONNECTED' }, undefined).catch(() => undefined)
      } finally {
        if (!live.has(ref.whatsappId)) await leases.release(ref)
      }
    })
  }

  async function sweep(): Promise<number> {
    const readFrom = directory.beginReading()
    const rows = await findResumableSessions(deps.db)
    const owners = await ownership.ownersOf(rows.map((row) => row.whatsappId))
    directory.refresh(rows, owners, readFrom)
    // A web instance only keeps its directory fresh: it runs no session.
    if (!cluster.hostsSessions) return 0
    const orphans = rows.filter((row) => {
      const owner = owners.get(row.whatsappId)
      return (owner === undefined || owner === me) && !live.has(row.whatsappId)
    })
    // One after the other, a stagger apart: a boot with hundreds of connections never opens them
    // in a burst, and a slow start pushes the next ones back instead of piling up behind it.
    for (const [index, row] of orphans.entries()) {
      if (index > 0) await runtime.wait(options.staggerMs)
      if (runtime.closed) break
      await takeOver({ companyId: row.companyId, whatsappId: row.whatsappId })
    }
    return orphans.length
  }

  const soonMs = () => 50 + Math.floor(Math.random() * 200)

  function scheduleAdoption(delayMs = options.adoptIntervalMs): void {
    if (runtime.closed || !ownership.shared || adoptTimer || sweeping) return
    scheduled = true
    adoptTimer = setTimeout(async () => {
      adoptTimer = undefined
      sweeping = true
      try {
        const adopted = await sweep()
        if (adopted > 0) logger.info('whatsapp sessions adopted', { count: adopted, instanceId: me })
      } catch (error) {
        logger.warn('whatsapp session adoption sweep failed', { error })
      } finally {
        sweeping = false
        const soon = wantedSoon
        wantedSoon = false
        scheduleAdoption(soon ? soonMs() : options.adoptIntervalMs)
      }
    }, delayMs)
    adoptTimer.unref?.()
  }

  return {
    sweep,
    scheduleAdoption: () => scheduleAdoption(),
    sweepSoon() {
      if (runtime.closed || !cluster.hostsSessions || !scheduled) return
      // A sweep in progress may have read the lease still held: one more follows it.
      if (sweeping) {
        wantedSoon = true
        return
      }
      // The pending sweep is brought forward, with a little jitter so that the hosts do not all query
      // at once (the lease picks one of them anyway).
      if (adoptTimer) clearTimeout(adoptTimer)
      adoptTimer = undefined
      scheduleAdoption(soonMs())
    },
    stop() {
      if (adoptTimer) clearTimeout(adoptTimer)
    },
  }
}
