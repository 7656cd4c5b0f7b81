// The forms of values a Whaticket-family web client sends, read at the edge (issue 16): its forms
// send `""` or `false` for "no id", numbers as strings ("49.90") and an empty string for a field left
// alone. Each helper wraps a field's real schema, so a value that is really wrong (a name of one
// character, an id of 0) is still refused with the field's own message; only the legacy spellings of
// "nothing" and of a number are read as what they mean. /swagger shows the accepted forms.
import { t, type TSchema } from 'elysia'
import { invalidField } from './errors.ts'

function messageOf(schema: TSchema): string | undefined {
  const error = (schema as { error?: unknown }).error
  return typeof error === 'string' ? error : undefined
}

/** `""` and `false` (a legacy form's "none") read as null; null itself too; anything else as the schema says. */
export function legacyNullable<T extends TSchema>(schema: T) {
  const accepted = t.Union([schema, t.Null(), t.Literal(false), t.Literal('')], { error: messageOf(schema), description: 'null, or `""` / `false` from legacy clients (read as null)' })
  return t
    .Transform(accepted)
    .Decode((value) => (value === false || value === '' ? null : value) as T['static'] | null)
    // TypeScript cannot relate a generic schema's static type to its own union's: the value is one of them.
    .Encode((value) => value as never)
}

/** `""` reads as not sent (the field keeps its value or its default); anything else as the schema says. */
export function emptyAsAbsent<T extends TSchema>(schema: T) {
  const accepted = t.Union([schema, t.Literal('')], { error: messageOf(schema), description: '`""` from legacy clients is read as not sent' })
  return t
    .Transform(accepted)
    .Decode((value) => (value === '' ? undefined : value) as T['static'] | undefined)
    .Encode((value) => (value ?? '') as never)
}

/** A decimal number, also written as a string ("49.90" or "49,90"), as legacy forms send money. */
export function numberOrNumericString(options: { name: string; minimum?: number; maximum?: number; error: string }) {
  const number = t.Number({ minimum: options.minimum, maximum: options.maximum })
  return t
    .Transform(t.Union([number, t.String({ pattern: '^\\s*-?[0-9]{1,12}([.,][0-9]{1,6})?\\s*$' })], { error: options.error }))
    .Decode((value) => {
      const parsed = typeof value === 'number' ? value : Number(value.trim().replace(',', '.'))
      // The string form is checked against the same bounds as the number form.
      if ((options.minimum !== undefined && parsed < options.minimum) || (options.maximum !== undefined && parsed > options.maximum)) throw invalidField(options.name, options.error)
      return parsed
    })
    .Encode((value) => value)
}
