// What an API error says: its code, the fields at fault (422) and any detail (a due date).

export type FieldError = { field: string; message: string }
export type ApiError = { status: number; code: string; fields: FieldError[]; dueDate?: string; retryAfterSeconds?: number; /** Why a payment provider refused (ERR_PAYMENT_REFUSED), in its words. */ reason?: string }

/** Reads an Eden error ({status, value}); a network failure (Eden hands the Error as value) is ERR_NETWORK. */
export function apiErrorOf(error: unknown): ApiError {
  if (error && typeof error === 'object' && 'status' in error && 'value' in error && !((error as { value: unknown }).value instanceof Error)) {
    const status = Number((error as { status: unknown }).status)
    const value = (error as { value: unknown }).value
    const body = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
    const fields = Array.isArray(body.fields) ? (body.fields as FieldError[]).filter((field) => typeof field?.field === 'string') : []
    return {
      status,
      // With LEGACY_CLIENT_ERRORS the code is in `code` where a Whaticket-family client needs `error` for itself.
      code: typeof body.code === 'string' ? body.code : typeof body.error === 'string' ? body.error : typeof value === 'string' && value ? value : `HTTP_${status}`,
      fields,
      dueDate: typeof body.dueDate === 'string' ? body.dueDate : undefined,
      retryAfterSeconds: typeof body.retryAfterSeconds === 'number' ? body.retryAfterSeconds : undefined,
      reason: typeof body.reason === 'string' ? body.reason : undefined,
    }
  }
  return { status: 0, code: 'ERR_NETWORK', fields: [] }
}
