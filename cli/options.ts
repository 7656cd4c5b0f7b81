// Parsers for option values: each refuses bad input with a reason commander prints on one line.
import { InvalidArgumentError } from 'commander'
import { recurrences, type Recurrence } from '../db/schema/index.ts'
import { PASSWORD_RULE } from '../src/core/schemas.ts'

export function integerOption(name: string, range: { min: number; max: number }) {
  return (raw: string): number => {
    const value = Number(raw)
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < range.min || value > range.max) {
      throw new InvalidArgumentError(`${name} must be an integer from ${range.min} to ${range.max}.`)
    }
    return value
  }
}

export function moneyOption(name: string) {
  return (raw: string): number => {
    const value = Number(raw)
    // numeric(10, 2) holds at most 99,999,999.99.
    if (!/^\d+(\.\d{1,2})?$/.test(raw.trim()) || value > 99_999_999.99) throw new InvalidArgumentError(`${name} must be a number from 0 to 99999999.99, at most 2 decimals.`)
    return value
  }
}

export function textOption(name: string, length: { min: number; max: number }) {
  return (raw: string): string => {
    const value = raw.trim()
    if (value.length < length.min || value.length > length.max) throw new InvalidArgumentError(`${name} must be ${length.min} to ${length.max} characters.`)
    return value
  }
}

export function emailOption(raw: string): string {
  const value = raw.trim()
  if (value.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new InvalidArgumentError('an e-mail address is expected, like name@example.com.')
  return value
}

/** Passwords keep their spaces: only the length is checked, as the REST forms do. */
/** §5's reset rule, as for every password set through the API (src/core/schemas.ts). */
export function passwordOption(raw: string): string {
  if (!new RegExp(PASSWORD_RULE).test(raw) || raw.length > 200) {
    throw new InvalidArgumentError('the password must have at least 8 characters (at most 200), with an uppercase letter, a lowercase letter and a digit.')
  }
  return raw
}

/** A calendar date YYYY-MM-DD that exists (no 2026-02-30). */
export function dateOption(raw: string): string {
  const value = raw.trim()
  const parsed = new Date(`${value}T00:00:00Z`)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== value) {
    throw new InvalidArgumentError('a calendar date YYYY-MM-DD is expected.')
  }
  return value
}

export function recurrenceOption(raw: string): Recurrence {
  const value = raw.trim().toUpperCase()
  const match = recurrences.find((recurrence) => recurrence === value)
  if (!match) throw new InvalidArgumentError(`one of ${recurrences.join(', ')} is expected.`)
  return match
}
