// The audit log is written by listening to the domain events of admin actions. Who and from where
// come from the request context (core/request-context.ts: the tenant plugin's caller, the client's
// address and user agent), so no service or payload had to carry them. "before" is what the log last
// recorded of the same entity (null the first time, or for entities the payload cannot show), "after"
// the state the event carries. Listeners return quickly; the insert runs after the emitter's work.
import type { Deps } from '../deps.ts'
import { currentRequestContext } from '../../core/request-context.ts'
import { findCompanyWhatsapp } from '../whatsapp/service.ts'
import { findLastRecordedState, insertAuditEntry } from './queries.ts'

type Entry = { companyId: number | null; action: string; entity: string; entityId: string | number | null; after: unknown; before?: unknown }

/**
 * The entries of one entity are written one after the other, in the order of their events: "before" is
 * read from the entry written just before, even when an emitter does not wait for its listeners (two
 * quick changes of one setting would otherwise both find the state before the first).
 */
function inOrder(writing: Map<string, Promise<void>>, key: string, write: () => Promise<void>): Promise<void> {
  // write never rejects (it logs its own failure), so one failed entry does not stop the next.
  const next = (writing.get(key) ?? Promise.resolve()).then(write)
  writing.set(key, next)
  void next.finally(() => {
    if (writing.get(key) === next) writing.delete(key)
  })
  return next
}

/** Records one entry after the entity's previous one; `before` defaults to the entity's last recorded state. */
function recordAuditEntry(deps: Pick<Deps, 'db' | 'now' | 'logger'>, writing: Map<string, Promise<void>>, entry: Entry, actorUserId?: number): Promise<void> {
  const context = currentRequestContext()
  const createdAt = deps.now()
  const entityId = entry.entityId === null ? null : String(entry.entityId)
  const write = async () => {
    try {
      const before =
        entry.before !== undefined ? entry.before : entityId === null ? null : await findLastRecordedState(deps.db, { companyId: entry.companyId, entity: entry.entity, entityId })
      await insertAuditEntry(deps.db, {
        companyId: entry.companyId,
        actorUserId: actorUserId ?? context?.userId ?? null,
        action: entry.action,
        entity: entry.entity,
        entityId,
        before: before ?? null,
        after: entry.after ?? null,
        ip: context?.ip ?? null,
        userAgent: context?.userAgent ?? null,
        createdAt,
      })
    } catch (error) {
      deps.logger.error('audit entry not written', { action: entry.action, error: String(error) })
    }
  }
  return inOrder(writing, `${entry.companyId}:${entry.entity}:${entityId}`, write)
}

/** What an admin configures on a connection; the token, QR and session state stay out of the log. */
function connectionSettingsOf(row: Awaited<ReturnType<typeof findCompanyWhatsapp>>) {
  if (!row) return null
  const { token: _token, qrcode: _qrcode, pairingCode: _pairingCode, retries: _retries, status: _status, createdAt: _createdAt, updatedAt: _updatedAt, ...settings } = row
  return settings
}

export function listenAuditLog(deps: Deps): () => void {
  // The entries being written, by entity: this app's own, emptied as they finish.
  const writing = new Map<string, Promise<void>>()
  const record = (entry: Entry, actorUserId?: number) => recordAuditEntry(deps, writing, entry, actorUserId)
  const stops = [
    deps.bus.on('user.changed', (event) =>
      record({ companyId: event.companyId, action: `user.${event.action}`, entity: 'user', entityId: event.userId, after: event.action === 'delete' ? null : (event.user ?? null) }),
    ),
    deps.bus.on('queue.changed', (event) =>
      record({ companyId: event.companyId, action: `queue.${event.action}`, entity: 'queue', entityId: event.queueId, after: event.action === 'delete' ? null : event.queue }),
    ),
    deps.bus.on('whatsapp.changed', async (event) => {
      // The payload names the connection only: its configuration is read (never its token or session).
      const after = event.action === 'delete' ? null : connectionSettingsOf(await findCompanyWhatsapp(deps.db, { companyId: event.companyId, whatsappId: event.whatsappId }))
      await record({ companyId: event.companyId, action: `whatsapp.${event.action}`, entity: 'whatsapp', entityId: event.whatsappId, after })
    }),
    deps.bus.on('setting.changed', (event) =>
      record({ companyId: event.companyId, action: 'setting.update', entity: 'setting', entityId: event.key, after: { value: event.value } }),
    ),
    deps.bus.on('plan.changed', (event) =>
      record({ companyId: null, action: `plan.${event.action}`, entity: 'plan', entityId: event.planId, after: event.action === 'delete' ? null : event.plan }),
    ),
    deps.bus.on('company.changed', (event) =>
      record({ companyId: event.companyId, action: `company.${event.action}`, entity: 'company', entityId: event.companyId, after: event.action === 'delete' ? null : event.company }),
    ),
    deps.bus.on('ticket.deleted', (event) =>
      record({ companyId: event.companyId, action: 'ticket.delete', entity: 'ticket', entityId: event.ticket.id, before: event.ticket, after: null }),
    ),
    deps.bus.on('contact.deleted', (event) => record({ companyId: event.companyId, action: 'contact.delete', entity: 'contact', entityId: event.contactId, after: null })),
    deps.bus.on('contact.exported', (event) =>
      record({ companyId: event.companyId, action: 'contact.export', entity: 'contact', entityId: null, before: null, after: { format: event.format, filters: event.filters } }),
    ),
    // Acks and edits are not admin actions: only a deletion by a signed-in user is recorded. This
    // listener is on the inbound hot path, so it decides synchronously and allocates nothing otherwise.
    deps.bus.on('message.updated', (event) => {
      if (!event.message.isDeleted || currentRequestContext()?.userId === undefined) return
      return record({ companyId: event.companyId, action: 'message.delete', entity: 'message', entityId: event.messageId, before: null, after: { ticketId: event.ticketId, isDeleted: true } })
    }),
    deps.bus.on('auth.two_factor_changed', (event) =>
      record(
        { companyId: event.companyId, action: `two_factor.${event.action}`, entity: 'two_factor', entityId: event.userId, before: { twoFactor: event.action === 'enable' ? 'off' : 'on' }, after: { twoFactor: event.action === 'enable' ? 'on' : 'off' } },
        event.actorUserId,
      ),
    ),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}
