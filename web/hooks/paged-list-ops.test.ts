// The paged lists' changes: newer-wins by updatedAt, patches only for shown rows, and the changes
// heard while a first page travelled applied again to it (the race a loaded machine shows).
import { describe, expect, test } from 'bun:test'
import { applyOp, nextPageWithHeard, pageWithHeard, type ListOp } from './paged-list-ops.ts'

type Row = { id: number; name: string; updatedAt?: string }
const at = (second: number) => `2026-11-26T10:00:${String(second).padStart(2, '0')}.000Z`

describe('paged list changes', () => {
  test('an upsert inserts (first or last) or replaces, unless the held copy is newer', () => {
    const rows: Row[] = [{ id: 1, name: 'a', updatedAt: at(5) }]
    expect(applyOp(rows, { kind: 'upsert', item: { id: 2, name: 'b' }, prepend: true }).map((row) => row.id)).toEqual([2, 1])
    expect(applyOp(rows, { kind: 'upsert', item: { id: 2, name: 'b' }, prepend: false }).map((row) => row.id)).toEqual([1, 2])
    expect(applyOp(rows, { kind: 'upsert', item: { id: 1, name: 'old', updatedAt: at(4) }, prepend: true })).toBe(rows)
    expect(applyOp(rows, { kind: 'upsert', item: { id: 1, name: 'same', updatedAt: at(5) }, prepend: true })[0]?.name).toBe('same')
    // Unstamped items are replaced as they come.
    expect(applyOp([{ id: 1, name: 'a' }], { kind: 'upsert', item: { id: 1, name: 'b' }, prepend: true })[0]?.name).toBe('b')
  })

  test('a patch refreshes a shown row only; a remove drops it', () => {
    const rows: Row[] = [{ id: 1, name: 'a' }]
    expect(applyOp(rows, { kind: 'patch', item: { id: 9, name: 'z' } })).toBe(rows)
    expect(applyOp(rows, { kind: 'patch', item: { id: 1, name: 'b' } })[0]?.name).toBe('b')
    expect(applyOp(rows, { kind: 'remove', id: 1 })).toEqual([])
  })

  test('what was heard while the first page travelled applies to it again, in order', () => {
    // The page was read before row 3 was created and row 1 checked, and before row 2 was deleted;
    // row 4 it holds in a newer state than the frame heard.
    const heard: ListOp<Row>[] = [
      { kind: 'upsert', item: { id: 3, name: 'new', updatedAt: at(3) }, prepend: false },
      { kind: 'patch', item: { id: 1, name: 'checked', updatedAt: at(3) } },
      { kind: 'remove', id: 2 },
      { kind: 'upsert', item: { id: 4, name: 'older', updatedAt: at(1) }, prepend: false },
    ]
    const page: Row[] = [
      { id: 1, name: 'unchecked', updatedAt: at(1) },
      { id: 2, name: 'gone', updatedAt: at(1) },
      { id: 4, name: 'newer', updatedAt: at(2) },
    ]
    expect(pageWithHeard(page, heard)).toEqual([
      { id: 1, name: 'checked', updatedAt: at(3) },
      { id: 4, name: 'newer', updatedAt: at(2) },
      { id: 3, name: 'new', updatedAt: at(3) },
    ])
  })

  test('a next page takes refreshes and removals heard while it travelled, not new rows', () => {
    const heard: ListOp<Row>[] = [
      { kind: 'patch', item: { id: 25, name: 'checked', updatedAt: at(3) } },
      { kind: 'remove', id: 26 },
      { kind: 'upsert', item: { id: 99, name: 'new', updatedAt: at(3) }, prepend: true },
      { kind: 'upsert', item: { id: 27, name: 'renamed', updatedAt: at(3) }, prepend: true },
    ]
    const page: Row[] = [
      { id: 25, name: 'unchecked', updatedAt: at(1) },
      { id: 26, name: 'gone', updatedAt: at(1) },
      { id: 27, name: 'old', updatedAt: at(1) },
    ]
    expect(nextPageWithHeard(page, heard).map((row) => `${row.id}:${row.name}`)).toEqual(['25:checked', '27:renamed'])
  })
})
