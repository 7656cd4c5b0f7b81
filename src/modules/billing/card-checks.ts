// §5 "card stage" checks, on the server too (the form checks first): every field required, the card
// number by its check digit (Luhn), the expiry not past.
import { validationError, type FieldError } from '../../core/errors.ts'
import type { CardDetails } from './provider.ts'
import type { SubscriptionBody } from './model.ts'

/** The Luhn check digit every card number carries: catches a mistyped digit before the provider does. */
export function passesLuhn(number: string): boolean {
  const digits = number.replace(/\D/g, '')
  if (digits.length < 13 || digits.length > 19) return false
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/** MM/YY or MM/YYYY to month and four-digit year; null when malformed. */
export function parseExpiry(expiry: string): { month: string; year: string } | null {
  const match = /^(0[1-9]|1[0-2])\/(\d{2}|\d{4})$/.exec(expiry)
  if (!match) return null
  const year = match[2]!.length === 2 ? `20${match[2]}` : match[2]!
  return { month: match[1]!, year }
}

/** The card of a checkout body, or ERR_VALIDATION naming every field at fault. */
export function cardFrom(body: SubscriptionBody, today: string): CardDetails {
  const fields: FieldError[] = []
  const required = ['lastName', 'state', 'nameOnCard', 'expiry', 'cvv'] as const
  for (const field of required) if (!body[field]?.trim()) fields.push({ field, message: `${field} is required to pay by card` })
  if (body.cardNumber && !passesLuhn(body.cardNumber)) fields.push({ field: 'cardNumber', message: 'cardNumber is not a valid card number' })
  const expiry = body.expiry ? parseExpiry(body.expiry) : null
  if (body.expiry && (!expiry || `${expiry.year}-${expiry.month}` < today.slice(0, 7))) fields.push({ field: 'expiry', message: 'expiry must be a month not yet past' })
  if (fields.length > 0) throw validationError(fields)
  return { holderName: body.nameOnCard!.trim(), number: body.cardNumber!.replace(/\D/g, ''), expiryMonth: expiry!.month, expiryYear: expiry!.year, cvv: body.cvv! }
}
