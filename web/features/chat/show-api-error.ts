// §8: a failed request shows its error code translated as an error toast (the raw code otherwise).
import type { I18n } from '@lingui/core'
import { apiErrorOf } from '../../api/errors.ts'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'

export function showApiError(i18n: I18n, error: unknown): void {
  showToast('error', errorMessage(i18n, apiErrorOf(error).code))
}
