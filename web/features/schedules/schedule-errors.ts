// §8 for the schedule requests: the shared catalogue (web/i18n/error-messages.ts, which has the
// ERR_NO_SCHEDULE_FOUND and ERR_SCHEDULE_ALREADY_SENT texts), except that a refused attachment names
// the image types §5 allows here.
import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { errorMessage } from '../../i18n/error-messages.ts'

const notAnImage = msg`Attach a png, jpg or jpeg image.`

export function scheduleErrorMessage(i18n: I18n, code: string): string {
  return code === 'ERR_INVALID_MEDIA_TYPE' ? i18n._(notAnImage) : errorMessage(i18n, code)
}
