import { describe, expect, test } from 'bun:test'
import { formatPairingCode, isPairingNumber, maskPairingNumber } from './pairing-number.ts'

describe('the pairing number and code', () => {
  test('the mask: +55 then (99) 99999-9999; any other country code keeps plain digits', () => {
    expect(maskPairingNumber('')).toBe('')
    expect(maskPairingNumber('5')).toBe('+5')
    expect(maskPairingNumber('55')).toBe('+55')
    expect(maskPairingNumber('551')).toBe('+55 (1')
    expect(maskPairingNumber('5511987654321')).toBe('+55 (11) 98765-4321')
    expect(maskPairingNumber('+55 (11) 98765-43219')).toBe('+55 (11) 98765-4321')
    expect(maskPairingNumber('551133334444')).toBe('+55 (11) 3333-4444')
    expect(maskPairingNumber('+1 (415) 555-0100')).toBe('+14155550100')
    expect(maskPairingNumber('1234567890123456789')).toBe('+123456789012345')
    // Deleting the space after +55 leaves the country code to edit.
    expect(maskPairingNumber('+55 (')).toBe('+55')
  })

  test("the server's rule: 10 to 15 digits, not starting with 0", () => {
    expect(isPairingNumber('+55 (11) 98765-4321')).toBe(true)
    expect(isPairingNumber('+14155550100')).toBe(true)
    expect(isPairingNumber('+55 (11) 9876')).toBe(false)
    expect(isPairingNumber('+0055119876543')).toBe(false)
    expect(isPairingNumber('5511 9876x4321')).toBe(false)
  })

  test('the code as two groups of four', () => {
    expect(formatPairingCode('ABCD1234')).toBe('ABCD-1234')
    expect(formatPairingCode('abcd-1234')).toBe('ABCD-1234')
    expect(formatPairingCode('ABC')).toBe('ABC')
  })
})
