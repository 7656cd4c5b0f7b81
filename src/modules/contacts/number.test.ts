import { describe, expect, test } from 'bun:test'
import { normaliseTypedNumber } from './number.ts'

describe('normaliseTypedNumber', () => {
  test('a Brazilian number typed without the country code gets 55', () => {
    expect(normaliseTypedNumber('(11) 98765-4321')).toBe('5511987654321')
    expect(normaliseTypedNumber('(11) 8765-4321')).toBe('551187654321')
    expect(normaliseTypedNumber('011 98765-4321')).toBe('5511987654321')
    expect(normaliseTypedNumber(11987654321)).toBe('5511987654321')
  })

  test('a number with its country code keeps its digits', () => {
    expect(normaliseTypedNumber('5511987654321')).toBe('5511987654321')
    expect(normaliseTypedNumber('+55 (11) 98765-4321')).toBe('5511987654321')
    expect(normaliseTypedNumber('0055 11 98765 4321')).toBe('5511987654321')
    expect(normaliseTypedNumber(5511987654321)).toBe('5511987654321')
    // 11 digits that are not a Brazilian mobile (third digit not 9): a US number with its 1.
    expect(normaliseTypedNumber('1 212 555 1234')).toBe('12125551234')
    // "+" says it is international, even when it looks like a Brazilian national number.
    expect(normaliseTypedNumber('+49 30 1234567')).toBe('49301234567')
    expect(normaliseTypedNumber('+49 3012 3456')).toBe('4930123456')
  })

  test('too few or too many digits, or no number at all', () => {
    expect(normaliseTypedNumber('1234567')).toBeUndefined()
    expect(normaliseTypedNumber('(11) 9876')).toBeUndefined()
    expect(normaliseTypedNumber('1'.repeat(21))).toBeUndefined()
    expect(normaliseTypedNumber('abc')).toBeUndefined()
    expect(normaliseTypedNumber('')).toBeUndefined()
    expect(normaliseTypedNumber(null)).toBeUndefined()
    expect(normaliseTypedNumber(true)).toBeUndefined()
    expect(normaliseTypedNumber(1.5e21)).toBeUndefined()
    expect(normaliseTypedNumber(5511.5)).toBeUndefined()
  })
})
