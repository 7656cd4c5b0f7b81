import { describe, expect, test } from 'bun:test'
import { storableRaw, storableText } from './storable.ts'

describe('storable', () => {
  test('storableRaw keeps bytes as base64, big integers as text, and gives up quietly on cycles', () => {
    expect(storableRaw({ a: new Uint8Array([1, 2]), b: Buffer.from([3]), c: 5n, d: [1, 'x'] })).toEqual({ a: 'AQI=', b: 'Aw==', c: '5', d: [1, 'x'] })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(storableRaw(cyclic)).toBeUndefined()
    expect(storableRaw(undefined)).toBeUndefined()
  })

  test('storableText drops NUL characters', () => {
    expect(storableText('a\u0000b')).toBe('ab')
  })
})
