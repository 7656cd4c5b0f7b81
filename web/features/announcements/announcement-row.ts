// An announcement as the pages hold it, and the §3 priority scale: 1 high (red), 2 medium (orange), 3 low (grey).
import type { Announcement } from '../../../src/modules/announcements/model.ts'
import type { Wire } from '../../../src/contracts/realtime.ts'

export type AnnouncementRow = Wire<Announcement>

/** Eden hands dates through untouched (parseDate off), but the types say Date: normalise either. */
const isoOf = (value: string | Date): string => (typeof value === 'string' ? value : value.toISOString())

export function toAnnouncementRow(record: Announcement | AnnouncementRow): AnnouncementRow {
  return { ...record, createdAt: isoOf(record.createdAt), updatedAt: isoOf(record.updatedAt) }
}

export const priorities = [1, 2, 3] as const
export type Priority = (typeof priorities)[number]

/** An unknown value shows as low, the default (§5). */
export function asPriority(value: number): Priority {
  return value === 1 || value === 2 ? value : 3
}

/** The CSS class that colours a priority: red, orange, grey. */
export function priorityClass(priority: number): string {
  return `priority-${asPriority(priority)}`
}

/** The popover's order: the most urgent first, then the newest. */
export function byUrgency(rows: AnnouncementRow[]): AnnouncementRow[] {
  return [...rows].sort((a, b) => a.priority - b.priority || b.createdAt.localeCompare(a.createdAt) || b.id - a.id)
}

/** Applies a `company-announcement` frame to the active list: upsert an active one, drop the rest. */
export function applyAnnouncementFrame(rows: AnnouncementRow[], frame: { action: 'create' | 'update'; record: AnnouncementRow } | { action: 'delete'; id: number }): AnnouncementRow[] {
  if (frame.action === 'delete') return rows.filter((row) => row.id !== frame.id)
  const others = rows.filter((row) => row.id !== frame.record.id)
  return frame.record.status ? byUrgency([...others, frame.record]) : others
}
