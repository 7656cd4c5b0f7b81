// Recording a state a provider reported: stored on the connection (through the whatsapp module), then
// announced to the other instances, then told to the company as the whatsapp.session_changed event
// (its realtime listener publishes the frames).
import { saveSessionState, type StoredSession } from '../../modules/whatsapp/session-state.ts'
import { toSession } from '../../modules/whatsapp/shapes.ts'
import { recordConnectionRestriction } from '../../modules/campaigns/service.ts'
import type { ConnectionRef, ConnectionState } from '../provider.ts'
import type { SessionRuntime } from './runtime.ts'

/** Undefined when the connection is gone (deleted meanwhile). `previous` tells whether the listed connection changed. */
export async function recordState(
  runtime: SessionRuntime,
  ref: ConnectionRef,
  state: ConnectionState,
  previous: Pick<StoredSession, 'status' | 'number'> | undefined,
): Promise<StoredSession | undefined> {
  const { deps, cluster } = runtime
  const row = await saveSessionState(deps.db, ref, state, deps.now())
  if (!row) return undefined
  // The other instances learn where this session is and whether sends can go to it - before any
  // client hears of the new state, so that a reply typed on seeing CONNECTED finds its way.
  await cluster.link?.announce({ whatsappId: ref.whatsappId, companyId: ref.companyId, status: row.status })
  const connectionChanged = !previous || previous.status !== row.status || previous.number !== row.number
  // Awaited: the frames are out before the caller (a session control) answers, as its client expects.
  await deps.bus.emit('whatsapp.session_changed', { companyId: ref.companyId, whatsappId: ref.whatsappId, session: toSession(row), connectionChanged })
  // A restriction WhatsApp signalled holds (or releases) the connection's campaign sends.
  if (state.restriction) {
    const { active, reason, until } = state.restriction
    await recordConnectionRestriction(deps, { ...ref, active, reason, until: until ?? null })
  }
  return row
}
