import { describe, expect, test } from 'bun:test'
import { createSecretBox } from './secret-box.ts'
import { isSealed, openText, sealText } from './sealed-text.ts'

describe('sealed text columns', () => {
  const box = createSecretBox('a key')

  test('seals a value and opens it back; empty stays empty', () => {
    const sealed = sealText(box, 'sk-live-1234567890')
    expect(isSealed(sealed)).toBe(true)
    expect(sealed).not.toContain('1234567890')
    expect(openText(box, sealed)).toBe('sk-live-1234567890')
    expect(sealText(box, '')).toBe('')
  })

  test('a value from before sealing is read as it is', () => {
    expect(isSealed('{"type":"service_account"}')).toBe(false)
    expect(openText(box, '{"type":"service_account"}')).toBe('{"type":"service_account"}')
  })
})
