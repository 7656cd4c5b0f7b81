import { describe, expect, test } from 'bun:test'
import { createSecretBox } from './secret-box.ts'

describe('secret box', () => {
  test('opens what it sealed, with a fresh nonce each time', () => {
    const box = createSecretBox('a key')
    const first = box.seal('JBSWY3DPEHPK3PXP')
    expect(first).not.toContain('JBSWY3DPEHPK3PXP')
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(first)
    expect(box.open(first)).toBe('JBSWY3DPEHPK3PXP')
  })

  test('refuses another key and a tampered value', () => {
    const sealed = createSecretBox('a key').seal('secret')
    expect(() => createSecretBox('another key').open(sealed)).toThrow()
    const [version, nonce, body, tag] = sealed.split('.')
    const flipped = Buffer.from(body!, 'base64url')
    flipped[0] = flipped[0]! ^ 1
    expect(() => createSecretBox('a key').open([version, nonce, flipped.toString('base64url'), tag].join('.'))).toThrow()
  })
})
