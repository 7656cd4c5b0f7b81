import { describe, expect, test } from 'bun:test'
import { AppError } from '../../core/errors.ts'
import { cardFrom, parseExpiry, passesLuhn } from './card-checks.ts'
import type { SubscriptionBody } from './model.ts'

const body: SubscriptionBody = {
  firstName: 'Ana',
  lastName: 'Silva',
  address2: 'Rua A, 10',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '01001-000',
  country: 'BR',
  nameOnCard: 'ANA SILVA',
  cardNumber: '4111 1111 1111 1111',
  expiry: '12/30',
  cvv: '123',
}

describe('card checks', () => {
  test('Luhn accepts real test numbers and refuses a mistyped digit', () => {
    expect(passesLuhn('4111111111111111')).toBe(true)
    expect(passesLuhn('5184 0197 4037 3151')).toBe(true)
    expect(passesLuhn('4111111111111112')).toBe(false)
    expect(passesLuhn('411111')).toBe(false)
  })

  test('expiry in MM/YY or MM/YYYY', () => {
    expect(parseExpiry('07/29')).toEqual({ month: '07', year: '2029' })
    expect(parseExpiry('07/2031')).toEqual({ month: '07', year: '2031' })
    expect(parseExpiry('13/29')).toBeNull()
  })

  test('a complete card passes, digits only', () => {
    expect(cardFrom(body, '2026-11-26')).toEqual({ holderName: 'ANA SILVA', number: '4111111111111111', expiryMonth: '12', expiryYear: '2030', cvv: '123' })
  })

  test('every missing or wrong field is named', () => {
    try {
      cardFrom({ ...body, lastName: ' ', cvv: undefined, expiry: '10/26', cardNumber: '4111111111111112' }, '2026-11-26')
      throw new Error('accepted')
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      const fields = ((error as AppError).details!.fields as { field: string }[]).map((field) => field.field)
      expect(fields).toEqual(['lastName', 'cvv', 'cardNumber', 'expiry'])
    }
  })
})
