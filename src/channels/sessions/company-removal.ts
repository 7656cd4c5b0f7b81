// A deleted company takes its connections' rows with it: whatever this instance still runs for it ends
// (the device logged out) and its leases go.
import type { SessionLeases } from './leases.ts'
import type { LocalSessions } from './local-sessions.ts'
import type { SessionRuntime } from './runtime.ts'

export function endSessionsOfDeletedCompanies(runtime: SessionRuntime, leases: SessionLeases, sessions: LocalSessions): () => void {
  return runtime.deps.bus.on('company.changed', async (event) => {
    if (event.action !== 'delete') return
    const ended = [...runtime.live.values()].filter((session) => session.ref.companyId === event.companyId)
    await Promise.all(
      ended.map((session) =>
        runtime.exclusive(session.ref.whatsappId, async () => {
          await sessions.remove(session.ref, undefined)
          await leases.release(session.ref)
        }),
      ),
    )
  })
}
