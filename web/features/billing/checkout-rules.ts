// §5 "Checkout" checks, as pure functions the forms (and their unit test) share: step 0's required
// fields and the card stage's, with the zip and card number formats the server checks too.

export type CheckoutData = { firstName: string; lastName: string; address2: string; city: string; state: string; zipcode: string; country: 'BR' | 'usa' }
export type CardData = { nameOnCard: string; cardNumber: string; expiry: string; cvv: string }
export type FieldErrors<Key extends string> = Partial<Record<Key, 'required' | 'format'>>

/** A Brazilian CEP (00000-000) or a US ZIP code (00000 or 00000-0000). */
export const ZIP_PATTERN = /^[0-9]{5}-?[0-9]{3}$|^[0-9]{5}(-[0-9]{4})?$/

export function checkData(data: CheckoutData): FieldErrors<keyof CheckoutData> {
  const errors: FieldErrors<keyof CheckoutData> = {}
  for (const field of ['firstName', 'address2', 'city', 'zipcode', 'country'] as const) if (!data[field].trim()) errors[field] = 'required'
  if (!errors.zipcode && !ZIP_PATTERN.test(data.zipcode.trim())) errors.zipcode = 'format'
  return errors
}

/** The Luhn check digit of a card number (the server checks it too). */
export function passesLuhn(number: string): boolean {
  const digits = number.replace(/\D/g, '')
  if (digits.length < 13 || digits.length > 19) return false
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

/** MM/YY not yet past (this month still counts). */
export function expiryValid(expiry: string, now = new Date()): boolean {
  const match = /^(0[1-9]|1[0-2])\/([0-9]{2})$/.exec(expiry.trim())
  if (!match) return false
  const month = Number(match[1])
  const year = 2000 + Number(match[2])
  return year > now.getFullYear() || (year === now.getFullYear() && month >= now.getMonth() + 1)
}

/** The card stage: every field required, plus last name and state which step 0 leaves optional. */
export function checkCard(card: CardData, data: CheckoutData, now = new Date()): FieldErrors<keyof CardData | 'lastName' | 'state'> {
  const errors: FieldErrors<keyof CardData | 'lastName' | 'state'> = {}
  if (!data.lastName.trim()) errors.lastName = 'required'
  if (!data.state.trim()) errors.state = 'required'
  if (!card.nameOnCard.trim()) errors.nameOnCard = 'required'
  if (!card.cardNumber.trim()) errors.cardNumber = 'required'
  else if (!passesLuhn(card.cardNumber)) errors.cardNumber = 'format'
  if (!card.expiry.trim()) errors.expiry = 'required'
  else if (!expiryValid(card.expiry, now)) errors.expiry = 'format'
  if (!card.cvv.trim()) errors.cvv = 'required'
  else if (!/^[0-9]{3,4}$/.test(card.cvv.trim())) errors.cvv = 'format'
  return errors
}

/** Seconds left until an instant, never negative; the Pix screen's countdown. */
export function secondsLeft(until: string | null | undefined, now: number): number {
  if (!until) return 0
  const time = Date.parse(until.includes('T') ? until : until.replace(' ', 'T'))
  return Number.isNaN(time) ? 0 : Math.max(0, Math.floor((time - now) / 1000))
}

/** 05:09, 3:00:07, or with days when the code is valid for long (a Pix code can last until its due date): 2d 03:00:07. */
export function formatCountdown(seconds: number): string {
  const days = Math.floor(seconds / 86_400)
  const hours = Math.floor((seconds % 86_400) / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = seconds % 60
  const pad = (value: number) => String(value).padStart(2, '0')
  if (days > 0) return `${days}d ${pad(hours)}:${pad(minutes)}:${pad(rest)}`
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${pad(minutes)}:${pad(rest)}`
}
