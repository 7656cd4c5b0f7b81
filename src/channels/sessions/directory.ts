// Where the sessions of the other instances are, as this instance last heard: what lets the
// synchronous providerFor() say at once whether a send can go to another instance's session. Fed by
// the owners' announcements (immediate) and by the adoption sweep (the database statuses and the
// leases, every few seconds), so that a missed announcement is corrected soon.
import type { ConnectionStatus } from '../../../db/schema/whatsapps.ts'
import type { ConnectionRef } from '../provider.ts'
import type { SessionAnnouncement } from './rpc.ts'
import type { ResumableSession } from '../../modules/whatsapp/session-state.ts'

export type SessionDirectory = {
  /** Whether another instance runs this connection's session and reported it CONNECTED. */
  connectedElsewhere(ref: ConnectionRef): boolean
  /** An owner's announcement (status null: it released the session). */
  heard(announcement: SessionAnnouncement, from: string): void
  /** Marks the start of a sweep's reads: what is announced after this mark is newer than them. */
  beginReading(): number
  /** Rebuilds the entries from a sweep's reads (the rows that should be live, and their lease holders). */
  refresh(rows: ResumableSession[], owners: Map<number, string>, readFrom: number): void
  /** This instance took the session over. */
  forget(whatsappId: number): void
}

type Entry = { companyId: number; owner: string; status: ConnectionStatus; learnt: number }

export function createSessionDirectory(instanceId: string): SessionDirectory {
  const entries = new Map<number, Entry>()
  // Orders what is learnt: an announcement newer than a sweep's reads wins over them.
  let clock = 0

  return {
    connectedElsewhere(ref) {
      const entry = entries.get(ref.whatsappId)
      return entry !== undefined && entry.companyId === ref.companyId && entry.status === 'CONNECTED'
    },

    heard({ whatsappId, companyId, status }, from) {
      if (status === null) {
        if (entries.get(whatsappId)?.owner === from) entries.delete(whatsappId)
        return
      }
      entries.set(whatsappId, { companyId, owner: from, status, learnt: ++clock })
    },

    beginReading() {
      return ++clock
    },

    refresh(rows, owners, readFrom) {
      const seen = new Set<number>()
      for (const row of rows) {
        const owner = owners.get(row.whatsappId)
        if (!owner || owner === instanceId) continue
        seen.add(row.whatsappId)
        if ((entries.get(row.whatsappId)?.learnt ?? 0) > readFrom) continue
        entries.set(row.whatsappId, { companyId: row.companyId, owner, status: row.status, learnt: readFrom })
      }
      for (const [whatsappId, entry] of [...entries]) if (!seen.has(whatsappId) && entry.learnt <= readFrom) entries.delete(whatsappId)
    },

    forget(whatsappId) {
      entries.delete(whatsappId)
    },
  }
}
