// The form rules of §5, as plain checks shared by the forms (messages are translated where shown).

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const isEmail = (value: string) => emailPattern.test(value.trim())
export const lengthBetween = (value: string, min: number, max: number) => value.trim().length >= min && value.trim().length <= max

/** §5 password reset: at least 8 characters with an uppercase letter, a lowercase letter and a digit. */
export const isStrongPassword = (value: string) => value.length >= 8 && /[a-z]/.test(value) && /[A-Z]/.test(value) && /[0-9]/.test(value)

/** §5 signup phone: the mask (99) 99999-9999, at most 11 digits. */
export function maskPhone(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 11)
  if (digits.length === 0) return ''
  if (digits.length <= 2) return `(${digits}`
  const area = digits.slice(0, 2)
  const rest = digits.slice(2)
  // Ten digits: landline (99) 9999-9999; eleven: mobile (99) 99999-9999.
  const split = rest.length > 8 ? 5 : 4
  return rest.length <= split ? `(${area}) ${rest}` : `(${area}) ${rest.slice(0, split)}-${rest.slice(split)}`
}
