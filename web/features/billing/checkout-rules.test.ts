import { describe, expect, test } from 'bun:test'
import { checkCard, checkData, expiryValid, formatCountdown, passesLuhn, secondsLeft, type CheckoutData } from './checkout-rules.ts'

const data: CheckoutData = { firstName: 'Ana', lastName: 'Silva', address2: 'Rua A, 10', city: 'Recife', state: 'PE', zipcode: '50000-000', country: 'BR' }

describe('checkout rules (§5)', () => {
  test('step 0 requires first name, address, city, zip and country; the zip has a format', () => {
    expect(checkData(data)).toEqual({})
    expect(checkData({ ...data, firstName: ' ', city: '', lastName: '', state: '' })).toEqual({ firstName: 'required', city: 'required' })
    expect(checkData({ ...data, zipcode: '1234' })).toEqual({ zipcode: 'format' })
    expect(checkData({ ...data, zipcode: '90210-1234', country: 'usa' })).toEqual({})
  })

  test('the card stage requires everything and checks number, expiry and cvv', () => {
    const now = new Date(2026, 10, 26)
    const card = { nameOnCard: 'ANA SILVA', cardNumber: '4111 1111 1111 1111', expiry: '11/26', cvv: '123' }
    expect(checkCard(card, data, now)).toEqual({})
    expect(checkCard({ nameOnCard: '', cardNumber: '4111 1111 1111 1112', expiry: '10/26', cvv: '12' }, { ...data, lastName: '', state: '' }, now)).toEqual({
      lastName: 'required',
      state: 'required',
      nameOnCard: 'required',
      cardNumber: 'format',
      expiry: 'format',
      cvv: 'format',
    })
    expect(passesLuhn('5184019740373151')).toBe(true)
    expect(expiryValid('13/30', now)).toBe(false)
  })

  test('the Pix countdown', () => {
    const now = Date.parse('2026-11-26T10:00:00Z')
    expect(secondsLeft('2026-11-26T10:01:05Z', now)).toBe(65)
    expect(secondsLeft('2026-11-26T09:00:00Z', now)).toBe(0)
    expect(secondsLeft(null, now)).toBe(0)
    expect(formatCountdown(65)).toBe('01:05')
    expect(formatCountdown(3 * 3600 + 7)).toBe('3:00:07')
    expect(formatCountdown(2 * 86_400 + 3 * 3600 + 7)).toBe('2d 03:00:07')
  })
})
