// The list's query strings as values: id lists and days, each bad one a 422 naming its field.
import { invalidField } from '../../core/errors.ts'

const maxId = 2_147_483_647
const maxIds = 200

/** "[1,2]", "1,2" or "" as ids; anything else is a 422 on the field. */
export function parseIdList(raw: string | undefined, field: string): number[] | undefined {
  if (raw === undefined) return undefined
  const text = raw.trim()
  if (text === '') return undefined
  let values: unknown[]
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text)
      if (!Array.isArray(parsed)) throw new Error('not an array')
      values = parsed
    } catch {
      throw invalidField(field, `${field} must be a JSON array of ids, such as [1,2]`)
    }
  } else {
    values = text.split(',').map((part) => part.trim())
  }
  const ids = values.map((value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  if (!ids.every((id): id is number => typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= maxId)) {
    throw invalidField(field, `${field} must hold positive integer ids`)
  }
  if (ids.length > maxIds) throw invalidField(field, `${field} holds at most ${maxIds} ids`)
  return [...new Set(ids)]
}

/** A calendar day that exists (the schema checked the yyyy-MM-dd shape; 2026-02-30 is caught here). */
export function assertRealDay(day: string | undefined, field: string): void {
  if (day === undefined) return
  const date = new Date(`${day}T00:00:00Z`)
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) throw invalidField(field, `${field} must be a real day, yyyy-MM-dd`)
}
