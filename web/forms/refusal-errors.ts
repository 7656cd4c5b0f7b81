// A form's errors after the server refused it (§8): the fields its 422 names, with the form's own
// rule texts; a duplicate (the name or e-mail another record has) on that field; anything else as one
// form-level message, which the dialog also shows as a toast. `describe` is the error catalogue
// (errorMessage with the page's i18n), passed in so that this stays free of the Lingui macros.
import type { ApiError } from '../api/errors.ts'
import { serverFieldErrors } from './server-errors.ts'

export function refusalErrors<Field extends string>(
  failure: ApiError,
  texts: Record<Field, string>,
  describe: (code: string) => string,
  taken?: { code: string; field: NoInfer<Field> },
): Partial<Record<Field | 'form', string>> {
  const errors = serverFieldErrors(failure, texts) as Partial<Record<Field | 'form', string>>
  if (taken && failure.code === taken.code) errors[taken.field] = describe(failure.code)
  if (Object.keys(errors).length === 0) errors.form = describe(failure.code)
  return errors
}
