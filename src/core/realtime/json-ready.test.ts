import { describe, expect, test } from 'bun:test'
import { jsonReady } from './json-ready.ts'

describe('jsonReady', () => {
  test('the same JSON as the view itself, the dates already as text; the view is not changed', () => {
    const at = new Date('2026-11-27T08:37:16.445Z')
    const view = { id: 1, body: 'Olá', createdAt: at, updatedAt: at, sla: null as Date | null, contact: { id: 2, name: 'Ana' }, tags: [] as string[] }
    const ready = jsonReady(view)
    expect(JSON.stringify(ready)).toBe(JSON.stringify(view))
    expect(ready.createdAt).toBe('2026-11-27T08:37:16.445Z')
    expect(view.createdAt).toBe(at)
  })

  test('a view without dates is passed as it is; an invalid date is null, as JSON makes it', () => {
    const plain = { id: 1, name: 'x' }
    expect(jsonReady(plain)).toBe(plain)
    const broken = { at: new Date(Number.NaN) }
    expect(JSON.stringify(jsonReady(broken))).toBe(JSON.stringify(broken))
    expect(jsonReady(broken).at).toBeNull()
  })
})
