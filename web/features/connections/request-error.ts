// §8: a refused request shows its error code translated as an error toast (the raw code otherwise).
import type { I18n } from '@lingui/core'
import { apiErrorOf, type ApiError } from '../../api/errors.ts'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'

export function showRequestError(i18n: I18n, error: unknown): ApiError {
  const apiError = apiErrorOf(error)
  showToast('error', errorMessage(i18n, apiError.code))
  return apiError
}
