// The one table of error codes: every error the API answers is one of these, with its HTTP status.
// Bodies are { "error": "ERR_..." } plus, for some codes, details (a date, the fields at fault).

export const errorStatus = {
  // From the product spec's catalogue (§8)
  ERR_INTERNAL_SERVER_ERROR: 500,
  /** The database cannot be reached right now: try again shortly (nothing was changed). */
  ERR_SERVICE_UNAVAILABLE: 503,
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_USER_DONT_EXISTS: 404,
  ERR_SENDING_WAPP_MSG: 502,
  ERR_DELETE_WAPP_MSG: 502,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 403,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 404,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,

  // Ours: the server behaviour the spec does not show
  ERR_VALIDATION: 422,
  ERR_UNAUTHORIZED: 401,
  ERR_NOT_FOUND: 404,
  ERR_TOO_MANY_REQUESTS: 429,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_SUBSCRIPTION_EXPIRED: 403,
  ERR_COMPANY_INACTIVE: 403,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_INVALID_RESET_CODE: 400,
  ERR_NO_PLAN_FOUND: 404,
  ERR_NO_COMPANY_FOUND: 404,
  ERR_NO_HELP_FOUND: 404,
  ERR_PLAN_NAME_ALREADY_EXISTS: 409,
  ERR_COMPANY_NAME_ALREADY_EXISTS: 409,
  ERR_PLAN_IN_USE: 409,
  ERR_PLAN_LIMIT_USERS: 403,
  ERR_PLAN_LIMIT_CONNECTIONS: 403,
  ERR_PLAN_LIMIT_QUEUES: 403,
  ERR_CANNOT_DELETE_SELF: 400,
  ERR_INVALID_MEDIA_TYPE: 415,
  ERR_WAPP_NAME_ALREADY_EXISTS: 409,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_QUEUE_NAME_ALREADY_EXISTS: 409,
  ERR_NO_QUEUE_OPTION_FOUND: 404,
  ERR_QUEUE_OPTION_ALREADY_EXISTS: 409,
  ERR_NO_TAG_FOUND: 404,
  ERR_TAG_NAME_ALREADY_EXISTS: 409,
  ERR_NO_QUICK_MESSAGE_FOUND: 404,
  ERR_QUICK_MESSAGE_ALREADY_EXISTS: 409,
  ERR_NO_NOTE_FOUND: 404,
  ERR_NO_MESSAGE_FOUND: 404,
  /** The connection's adapter cannot list the phone's contacts (Baileys), or listing them failed. */
  ERR_WAPP_CONTACTS_UNAVAILABLE: 400,
  ERR_NO_SCHEDULE_FOUND: 404,
  /** A scheduled message already sent (or being sent) is history: it cannot change (§4 Schedule). */
  ERR_SCHEDULE_ALREADY_SENT: 409,
  ERR_NO_CAMPAIGN_FOUND: 404,
  /** §4: editable only INATIVA or CANCELADA, or PROGRAMADA with scheduledAt more than 1 hour away. */
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  /** Cancel needs EM_ANDAMENTO or PROGRAMADA, restart needs CANCELADA, delete anything but EM_ANDAMENTO. */
  ERR_CAMPAIGN_INVALID_STATUS: 409,
  ERR_NO_INTEGRATION_FOUND: 404,
  ERR_INTEGRATION_NAME_ALREADY_EXISTS: 409,
  ERR_NO_PROMPT_FOUND: 404,
  ERR_PROMPT_NAME_ALREADY_EXISTS: 409,
  /** The password was right; the sign-in continues with a TOTP or recovery code (details: challengeToken). */
  ERR_TWO_FACTOR_REQUIRED: 401,
  /** The password was right, but policy requires 2FA and the user has none yet: enrol first (details: challengeToken). */
  ERR_TWO_FACTOR_SETUP_REQUIRED: 401,
  /** 400, not 401: the web client ends the session on any 401, and a mistyped code must not sign out. */
  ERR_INVALID_TWO_FACTOR_CODE: 400,
  ERR_TWO_FACTOR_ALREADY_ENABLED: 409,
  ERR_TWO_FACTOR_NOT_ENABLED: 400,
  /** No such chat in the caller's company. */
  ERR_NO_CHAT_FOUND: 404,
  /** No such announcement (an inactive one, for a user who is not a super user). */
  ERR_NO_ANNOUNCEMENT_FOUND: 404,
  ERR_NO_CONTACT_LIST_FOUND: 404,
  ERR_NO_CONTACT_LIST_ITEM_FOUND: 404,
  /** The list already holds this number (one item per number and list). */
  ERR_DUPLICATED_CONTACT_LIST_ITEM: 409,
  ERR_NO_FILE_LIST_FOUND: 404,
  ERR_NO_WEBHOOK_FOUND: 404,
  ERR_NO_WEBHOOK_DELIVERY_FOUND: 404,
  /** A company has at most 20 webhooks (details: limit). */
  ERR_WEBHOOK_LIMIT: 409,
  /** Billing: no such invoice in the caller's company. */
  ERR_NO_INVOICE_FOUND: 404,
  ERR_INVOICE_ALREADY_PAID: 409,
  /** The platform has no payment provider token (the `asaas` setting of the super users' company). */
  ERR_PAYMENT_NOT_CONFIGURED: 503,
  /** The provider refused the charge (a declined card, data it rejects); details: reason. */
  ERR_PAYMENT_REFUSED: 402,
  /** The provider could not be reached or failed: nothing was charged by us, try again. */
  ERR_PAYMENT_PROVIDER_UNAVAILABLE: 502,
  /** /socket.io speaks Engine.IO 4 over websocket only (no long-polling): details: message. */
  ERR_SOCKET_IO_TRANSPORT: 400,
  /** A prompt's model (its OpenAI-compatible API) failed, refused or could not be reached; details: reason. */
  ERR_AI_REQUEST_FAILED: 502,
  /** A queue integration's credentials are not usable as given (not a service-account key, no agent); details: reason. */
  ERR_INTEGRATION_INVALID_CREDENTIALS: 400,
  /** The integration's provider refused its credentials (Google's token endpoint, Dialogflow); details: reason. */
  ERR_INTEGRATION_AUTH_FAILED: 502,
  /** The integration could not be reached, timed out or answered an error or nonsense; details: reason. */
  ERR_INTEGRATION_REQUEST_FAILED: 502,
} as const

export type ErrorCode = keyof typeof errorStatus

export type ErrorDetails = Record<string, unknown>

export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly details: ErrorDetails | undefined

  constructor(code: ErrorCode, details?: ErrorDetails) {
    super(code)
    this.name = 'AppError'
    this.code = code
    this.status = errorStatus[code]
    this.details = details
  }

  toBody(): { error: ErrorCode } & ErrorDetails {
    return { ...this.details, error: this.code }
  }
}

/** One field at fault in an ERR_VALIDATION answer: its path ("schedules.0.endTime") and why. */
export type FieldError = { field: string; message: string }

/** The ERR_VALIDATION body, `{ error, fields }`, for answers built outside an AppError (the HTTP error mapper). */
export function validationBody(fields: FieldError[]): { error: 'ERR_VALIDATION'; fields: FieldError[] } {
  return { error: 'ERR_VALIDATION', fields }
}

/** ERR_VALIDATION naming every field at fault (a service that checks several fields at once). */
export function validationError(fields: FieldError[]): AppError {
  return new AppError('ERR_VALIDATION', { fields })
}

/** ERR_VALIDATION for one field: the rule a service checks beyond the route's schema. */
export function invalidField(field: string, message: string): AppError {
  return validationError([{ field, message }])
}

export function isErrorCode(value: string): value is ErrorCode {
  return value in errorStatus
}

/** PostgreSQL unique violation (23505), whichever driver raised it: the SQLSTATE sits on the cause. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  let current: unknown = error
  for (let depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; constraint_name?: unknown; constraint?: unknown; cause?: unknown }
    if (candidate.code === '23505') {
      if (!constraint) return true
      const name = candidate.constraint_name ?? candidate.constraint
      return typeof name === 'string' && name === constraint
    }
    current = candidate.cause
  }
  return false
}

/** PostgreSQL foreign-key violation (23503). */
export function isForeignKeyViolation(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown }
    // 23503 foreign_key_violation; 23001 restrict_violation (ON DELETE RESTRICT)
    if (candidate.code === '23503' || candidate.code === '23001') return true
    current = candidate.cause
  }
  return false
}

/** PostgreSQL data exception (class 22: a number out of range, NUL in text, an impossible date): a value the request sent. */
export function isDataException(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown }
    if (typeof candidate.code === 'string' && candidate.code.startsWith('22')) return true
    current = candidate.cause
  }
  return false
}

/** Codes of postgres.js and of the socket when the database cannot be reached or the connection dropped. */
const unreachableCodes = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'])

/**
 * The database is down or the connection dropped (a driver code above, SQLSTATE class 08 connection
 * exception, 57P01-57P03 shutting down or not accepting connections): the request failed through no
 * fault of its own and may be retried, so it is a 503, not a 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && (unreachableCodes.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code))) return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}
