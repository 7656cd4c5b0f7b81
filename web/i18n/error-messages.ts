// §8: a server error code is shown translated when a translation exists, otherwise as its raw text.
import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

const errorMessages: Record<string, MessageDescriptor> = {
  ERR_INTERNAL_SERVER_ERROR: msg`Something went wrong on the server. Please try again.`,
  ERR_NO_OTHER_WHATSAPP: msg`At least one default WhatsApp connection is required.`,
  ERR_NO_DEF_WAPP_FOUND: msg`No default WhatsApp connection found. Check the connections page.`,
  ERR_WAPP_NOT_INITIALIZED: msg`This WhatsApp connection has not been initialized. Check the connections page.`,
  ERR_WAPP_CHECK_CONTACT: msg`Could not check the WhatsApp contact. Check the connections page.`,
  ERR_WAPP_INVALID_CONTACT: msg`This is not a valid WhatsApp number.`,
  ERR_WAPP_DOWNLOAD_MEDIA: msg`Could not download the media from WhatsApp. Check the connections page.`,
  ERR_INVALID_CREDENTIALS: msg`Authentication failed. Please check your e-mail and password.`,
  ERR_USER_DONT_EXISTS: msg`User not found. Check the e-mail address.`,
  ERR_SENDING_WAPP_MSG: msg`Could not send the WhatsApp message.`,
  ERR_DELETE_WAPP_MSG: msg`Could not delete the WhatsApp message.`,
  ERR_OTHER_OPEN_TICKET: msg`There is already an open ticket for this contact.`,
  ERR_SESSION_EXPIRED: msg`Your session has expired. Please sign in again.`,
  ERR_USER_CREATION_DISABLED: msg`User creation has been disabled by the administrator.`,
  ERR_NO_PERMISSION: msg`You do not have permission to access this resource.`,
  ERR_DUPLICATED_CONTACT: msg`A contact with this number already exists.`,
  ERR_NO_SETTING_FOUND: msg`No setting found with this ID.`,
  ERR_NO_CONTACT_FOUND: msg`No contact found with this ID.`,
  ERR_NO_TICKET_FOUND: msg`No ticket found with this ID.`,
  ERR_NO_USER_FOUND: msg`No user found with this ID.`,
  ERR_NO_WAPP_FOUND: msg`No WhatsApp connection found with this ID.`,
  ERR_CREATING_MESSAGE: msg`Could not create the message.`,
  ERR_CREATING_TICKET: msg`Could not create the ticket.`,
  ERR_FETCH_WAPP_MSG: msg`Could not fetch the WhatsApp message; it may be too old.`,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: msg`This colour is already used by another queue. Pick another one.`,
  ERR_WAPP_GREETING_REQUIRED: msg`A greeting message is required when there is more than one queue.`,
  ERR_VALIDATION: msg`Some fields are not valid. Check them and try again.`,
  ERR_UNAUTHORIZED: msg`Please sign in to continue.`,
  ERR_NOT_FOUND: msg`Not found.`,
  ERR_TOO_MANY_REQUESTS: msg`Too many attempts. Please wait a few minutes and try again.`,
  ERR_PAYLOAD_TOO_LARGE: msg`The file is too large.`,
  ERR_SUBSCRIPTION_EXPIRED: msg`Your subscription has expired. Please contact support.`,
  ERR_COMPANY_INACTIVE: msg`This company is inactive. Please contact support.`,
  ERR_EMAIL_ALREADY_EXISTS: msg`This e-mail address is already in use.`,
  ERR_INVALID_RESET_CODE: msg`The code is invalid or has expired. Request a new one.`,
  ERR_NO_PLAN_FOUND: msg`Plan not found.`,
  ERR_NO_COMPANY_FOUND: msg`Company not found.`,
  ERR_COMPANY_NAME_ALREADY_EXISTS: msg`A company with this name already exists.`,
  ERR_PLAN_LIMIT_USERS: msg`Your plan's user limit has been reached.`,
  ERR_PLAN_LIMIT_CONNECTIONS: msg`Your plan's connection limit has been reached.`,
  ERR_PLAN_LIMIT_QUEUES: msg`Your plan's queue limit has been reached.`,
  ERR_NETWORK: msg`Could not reach the server. Check your connection and try again.`,
}

export function errorMessage(i18n: I18n, code: string): string {
  const descriptor = errorMessages[code]
  return descriptor ? i18n._(descriptor) : code
}
