// The error toast of a failed request, in the user's language: what most of the pages' catch blocks do.
import type { I18n } from '@lingui/core'
import { apiErrorOf } from '../api/errors.ts'
import { errorMessage } from '../i18n/error-messages.ts'
import { showToast } from './toasts.tsx'

/** Shows the failure's message as an error toast, and returns it for a form that shows it too. */
export function toastFailure(i18n: I18n, failure: unknown): string {
  const text = errorMessage(i18n, apiErrorOf(failure).code)
  showToast('error', text)
  return text
}
