// The contact number in the edit form (§5 Contact): the stored number loses its first 2 characters
// (Brazil's 55) and shows with the (99) 9999-9999 mask. The server puts 55 back on a number typed
// that way. Only a Brazilian number is shortened: any other keeps its country code behind '+', which
// tells the server it is international (stripping it would turn it into a wrong Brazilian number).
import { maskPhone } from './validation.ts'

const brazilianStored = /^55([1-9]{2}9?\d{8})$/

export function numberForEdit(stored: string): string {
  if (!/^\d+$/.test(stored)) return stored
  const national = brazilianStored.exec(stored)?.[1]
  return national ? maskPhone(national) : `+${stored}`
}

/** For reading: +55 (11) 98765-4321 for a Brazilian number, +digits for another, a group id as stored. */
export function numberForDisplay(stored: string): string {
  if (!/^\d+$/.test(stored)) return stored
  const national = brazilianStored.exec(stored)?.[1]
  return national ? `+55 ${maskPhone(national)}` : `+${stored}`
}

/** As the person types: the mask for a national number, digits only after a leading '+'. */
export function maskTypedNumber(typed: string): string {
  if (typed.trimStart().startsWith('+')) return `+${typed.replace(/\D/g, '').slice(0, 20)}`
  return maskPhone(typed)
}
