// The reasons a spreadsheet row is refused (src/modules/contacts/model.ts uploadReasons), as the person reads them.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { UploadReason } from '../../../src/modules/contacts/model.ts'

export const uploadReasonMessages: Record<UploadReason, MessageDescriptor> = {
  MISSING_NAME: msg`The name is missing.`,
  INVALID_NAME: msg`The name must have 2 to 50 characters.`,
  MISSING_NUMBER: msg`The number is missing.`,
  INVALID_NUMBER: msg`The number is not valid: 8 to 20 digits with the area code.`,
  INVALID_EMAIL: msg`The e-mail address is not valid.`,
  DUPLICATED_IN_FILE: msg`The same number appears on an earlier row.`,
  ALREADY_EXISTS: msg`A contact with this number already exists.`,
}
