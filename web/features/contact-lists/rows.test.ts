import { describe, expect, test } from 'bun:test'
import { contactListIdOf, itemsPathOf, validityOf } from './rows.ts'

describe('contact list rows', () => {
  test('an item is pending until WhatsApp answered, then valid or invalid', () => {
    expect(validityOf({ isWhatsappValid: false, whatsappCheckedAt: null })).toBe('pending')
    expect(validityOf({ isWhatsappValid: true, whatsappCheckedAt: '2026-11-26T06:00:00.000Z' })).toBe('valid')
    expect(validityOf({ isWhatsappValid: false, whatsappCheckedAt: '2026-11-26T06:00:00.000Z' })).toBe('invalid')
  })

  test('the items page path names its list', () => {
    expect(itemsPathOf(12)).toBe('/contact-lists/12/contacts')
    expect(contactListIdOf('/contact-lists/12/contacts')).toBe(12)
    expect(contactListIdOf('/contact-lists/0/contacts')).toBeNull()
    expect(contactListIdOf('/contact-lists/abc/contacts')).toBeNull()
    expect(contactListIdOf('/contact-lists')).toBeNull()
  })
})
