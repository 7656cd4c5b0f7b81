import { describe, expect, test } from 'bun:test'
import { applyAnnouncementFrame, asPriority, byUrgency, priorityClass, type AnnouncementRow } from './announcement-row.ts'

function row(id: number, priority: number, createdAt: string, status = true): AnnouncementRow {
  return { id, priority, createdAt, updatedAt: createdAt, status, title: `A${id}`, text: '', mediaPath: null, mediaName: null, mediaUrl: null }
}

describe('announcement rows', () => {
  test('priorities map to their colours, anything else to low', () => {
    expect([1, 2, 3, 9].map(priorityClass)).toEqual(['priority-1', 'priority-2', 'priority-3', 'priority-3'])
    expect(asPriority(0)).toBe(3)
  })

  test('the most urgent first, then the newest', () => {
    const rows = [row(1, 3, '2026-01-02'), row(2, 1, '2026-01-01'), row(3, 1, '2026-01-03')]
    expect(byUrgency(rows).map((item) => item.id)).toEqual([3, 2, 1])
  })

  test('frames: an active one is upserted, an inactive or deleted one leaves', () => {
    const rows = [row(1, 3, '2026-01-01')]
    const added = applyAnnouncementFrame(rows, { action: 'create', record: row(2, 1, '2026-01-02') })
    expect(added.map((item) => item.id)).toEqual([2, 1])
    expect(applyAnnouncementFrame(added, { action: 'update', record: row(2, 1, '2026-01-02', false) }).map((item) => item.id)).toEqual([1])
    expect(applyAnnouncementFrame(added, { action: 'delete', id: 1 }).map((item) => item.id)).toEqual([2])
  })
})
