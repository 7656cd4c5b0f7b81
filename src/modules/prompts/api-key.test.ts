import { describe, expect, test } from 'bun:test'
import { maskApiKey } from './api-key.ts'

describe('maskApiKey', () => {
  test('a long key shows only its last 4 characters', () => {
    expect(maskApiKey('sk-proj-abcdefghijklmnop1234')).toBe('****1234')
  })

  test('a short key shows nothing of itself; an empty one stays empty', () => {
    expect(maskApiKey('short-key1')).toBe('****')
    expect(maskApiKey('')).toBe('')
  })
})
