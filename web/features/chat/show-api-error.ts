// §8: a failed request shows its error code translated as an error toast (the raw code otherwise).
import type { I18n } from '@lingui/core'
import { toastFailure } from '../../components/failure-toast.ts'

export function showApiError(i18n: I18n, error: unknown): void {
  toastFailure(i18n, error)
}
