// A phone number typed by a person (the contact form, a spreadsheet cell) as contacts store it:
// digits with the country code, so that "(11) 98765-4321" and "+55 11 98765-4321" are one contact.
// The digits are onlyDigits', the rule the inbound pipeline files WhatsApp's numbers by; what is
// added here is the country code a person leaves out. WhatsApp's own numbers always carry it and never pass here.
import { storableText } from '../messages/storable.ts'

export const onlyDigits = (value: string): string => value.replace(/\D/g, '')

/** A display name worth keeping: not empty and not just the number again. */
export function realName(name: string | undefined, number: string): string | undefined {
  const trimmed = storableText(name ?? '').trim()
  if (!trimmed || onlyDigits(trimmed) === number) return undefined
  return trimmed.slice(0, 200)
}

/**
 * Numbers typed without a country code are Brazilian: the product's market (pt-BR, BRL, Pix) and the
 * spec's form mask (99) 9999-9999 are Brazil's, and the form strips the stored "55" on edit.
 */
export const DEFAULT_COUNTRY_CODE = '55'

export const MIN_NUMBER_DIGITS = 8
/** E.164 allows 15; the external API's rule (8 to 20) is kept so both entry points agree. */
export const MAX_NUMBER_DIGITS = 20

/**
 * A Brazilian number written without the country code: area code (two digits, no zero) and either
 * 8 digits (landline) or 9 starting with 9 (mobile). Anything else is taken as already international.
 */
function isBrazilianNational(digits: string): boolean {
  return /^[1-9]{2}\d{8}$/.test(digits) || /^[1-9]{2}9\d{8}$/.test(digits)
}

/**
 * The stored form of a typed number, or undefined when it cannot be one (too few or too many digits).
 * Leading zeros go: no country code starts with 0 (a trunk "0" or an international "00" prefix).
 */
export function normaliseTypedNumber(raw: string | number | boolean | null | undefined): string | undefined {
  if (raw === null || raw === undefined || typeof raw === 'boolean') return undefined
  // A spreadsheet number cell: only a whole number can be a phone (1.5e+21 has lost its digits).
  if (typeof raw === 'number' && !Number.isSafeInteger(raw)) return undefined
  const digits = onlyDigits(String(raw)).replace(/^0+/, '')
  if (digits.length < MIN_NUMBER_DIGITS) return undefined
  // "+49 30 123456" says it is international; only a number without "+" may lack its country code.
  const international = typeof raw === 'string' && raw.trim().startsWith('+')
  const number = !international && isBrazilianNational(digits) ? `${DEFAULT_COUNTRY_CODE}${digits}` : digits
  return number.length > MAX_NUMBER_DIGITS ? undefined : number
}
