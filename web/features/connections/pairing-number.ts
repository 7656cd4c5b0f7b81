// Pairing by phone number instead of the QR code: the number as typed, with the §5 phone mask after a
// Brazilian country code (+55 (11) 98765-4321) and digits after any other (+351912345678), the rule
// the server applies to it, and the 8-character code shown as XXXX-XXXX.
import { maskPhone } from '../../forms/validation.ts'

/** At most 15 digits: the longest international number (E.164). */
const MAX_DIGITS = 15

/** As the person types: always behind a '+', since the country code is part of it. */
export function maskPairingNumber(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, MAX_DIGITS)
  if (digits === '') return ''
  if (digits.startsWith('55') && digits.length > 2) return `+55 ${maskPhone(digits.slice(2))}`
  return `+${digits}`
}

/** The server's rule: 10 to 15 digits once +, spaces, dashes and parentheses are set aside, not starting with 0. */
export function isPairingNumber(typed: string): boolean {
  return /^[1-9]\d{9,14}$/.test(typed.replace(/[+\s()-]/g, ''))
}

/** WhatsApp's pairing codes are 8 characters; the phone shows them as two groups of four. */
export function formatPairingCode(code: string): string {
  const compact = code.replace(/[\s-]/g, '').toUpperCase()
  return compact.length === 8 ? `${compact.slice(0, 4)}-${compact.slice(4)}` : compact
}
