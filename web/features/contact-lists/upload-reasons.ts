// The reasons a spreadsheet row is left out of a list (src/modules/contact-lists/model.ts listUploadReasons), as the person reads them.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { ListUploadReason } from '../../../src/modules/contact-lists/model.ts'
import { uploadReasonMessages } from '../contacts/upload-reasons.ts'

export const listUploadReasonMessages: Record<ListUploadReason, MessageDescriptor> = {
  MISSING_NAME: uploadReasonMessages.MISSING_NAME,
  INVALID_NAME: uploadReasonMessages.INVALID_NAME,
  MISSING_NUMBER: uploadReasonMessages.MISSING_NUMBER,
  INVALID_NUMBER: uploadReasonMessages.INVALID_NUMBER,
  INVALID_EMAIL: uploadReasonMessages.INVALID_EMAIL,
  DUPLICATED_IN_FILE: uploadReasonMessages.DUPLICATED_IN_FILE,
  ALREADY_IN_LIST: msg`The list already holds this number.`,
}
