// §8 for the settings page: a failed request's translated text (toasted by the caller), and the save
// of the super users' dialogs (company, plan, help), which answer a refusal alike.
import type { I18n } from '@lingui/core'
import { apiErrorOf, type ApiError } from '../../api/errors.ts'
import { showToast } from '../../components/toasts.tsx'
import { serverFieldErrors } from '../../forms/server-errors.ts'
import { errorMessage } from '../../i18n/error-messages.ts'

export function failureOf(i18n: I18n, error: unknown): { failure: ApiError; text: string } {
  const failure = apiErrorOf(error)
  return { failure, text: errorMessage(i18n, failure.code) }
}

type FormErrors<Field extends string> = Partial<Record<Field | 'form', string>>

export type SaveOptions<Row, Field extends string> = {
  i18n: I18n
  request: () => Promise<{ data: Row | null; error: unknown }>
  /** The rule's text of each field, shown on a field the server's 422 names. */
  fieldTexts: Record<Field, string>
  /** Refusals that belong to one field (a name already in use): the error code and that field. */
  fieldOfCode?: Partial<Record<string, Field>>
  setErrors: (errors: FormErrors<Field>) => void
  setPending: (pending: boolean) => void
}

/**
 * Sends a dialog's save and answers a refusal: the refused fields show their rule (or the code's
 * text), a refusal no field explains shows above the form, and every refusal is toasted.
 * Resolves to the saved row, or undefined when it was refused.
 */
export async function saveDialog<Row, Field extends string>(options: SaveOptions<Row, Field>): Promise<Row | undefined> {
  const { i18n, request, fieldTexts, fieldOfCode = {}, setErrors, setPending } = options
  setPending(true)
  try {
    const { data, error } = await request()
    if (error || !data) {
      const { failure, text } = failureOf(i18n, error)
      const fromServer: FormErrors<Field> = {}
      for (const [field, rule] of Object.entries(serverFieldErrors(failure, fieldTexts)) as [Field, string][]) fromServer[field] = rule
      const field = fieldOfCode[failure.code]
      if (field) fromServer[field] = text
      if (Object.keys(fromServer).length === 0) fromServer.form = text
      setErrors(fromServer)
      showToast('error', text)
      return undefined
    }
    return data
  } catch (failure) {
    const { text } = failureOf(i18n, failure)
    setErrors({ form: text } as FormErrors<Field>)
    showToast('error', text)
    return undefined
  } finally {
    setPending(false)
  }
}
