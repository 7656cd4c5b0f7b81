import { describe, expect, test } from 'bun:test'
import { AppError } from '../../core/errors.ts'
import { pairingDigits } from './sessions.ts'

describe('pairingDigits: the phone to pair by code', () => {
  test('keeps the digits of a number written with +, spaces, dashes and parentheses', () => {
    expect(pairingDigits('+55 (11) 98765-4321')).toBe('5511987654321')
    expect(pairingDigits('5511987654321')).toBe('5511987654321')
    expect(pairingDigits(' +1 415-555-0100 ')).toBe('14155550100')
    expect(pairingDigits('+351 912 345 678')).toBe('351912345678')
    expect(pairingDigits('123456789012345')).toBe('123456789012345')
  })

  test('refuses on field number: fewer than 10 or more than 15 digits, other characters, a leading 0', () => {
    for (const number of ['', '+', '123456789', '1234567890123456', '55 11 98765.4321', '55119876543x1', '0055 11 98765-4321', '+0 415 555 0100']) {
      let caught: unknown
      try {
        pairingDigits(number)
      } catch (error) {
        caught = error
      }
      expect(caught, number).toBeInstanceOf(AppError)
      expect((caught as AppError).code).toBe('ERR_VALIDATION')
      expect((caught as AppError).details).toEqual({ fields: [{ field: 'number', message: expect.stringContaining('country code') }] })
    }
  })
})
