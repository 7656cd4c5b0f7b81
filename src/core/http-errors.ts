// Maps every error a request can raise to the API's error body. The only place statuses are chosen.
import { Elysia, ValidationError } from 'elysia'
import { AppError, isDatabaseUnavailable, isDataException, isForeignKeyViolation, isUniqueViolation, validationBody, type FieldError } from './errors.ts'
import type { Logger } from './logger.ts'

function fieldsOf(error: ValidationError): FieldError[] {
  const seen = new Set<string>()
  const fields: FieldError[] = []
  for (const issue of error.all) {
    const path = 'path' in issue && typeof issue.path === 'string' ? issue.path : ''
    // When Elysia coerces a single query or path value it reports no path: the schema's title names it.
    const title = 'schema' in issue ? (issue.schema as { title?: unknown }).title : undefined
    const field = path.replace(/^\//, '').replaceAll('/', '.') || (typeof title === 'string' ? title : error.type)
    if (seen.has(field)) continue
    seen.add(field)
    const schemaError = 'schema' in issue ? (issue.schema as { error?: unknown }).error : undefined
    const message = typeof schemaError === 'string' ? schemaError : 'message' in issue ? String(issue.message) : 'is invalid'
    fields.push({ field, message })
  }
  return fields
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } })

/**
 * ERR_OTHER_OPEN_TICKET as a Whaticket-family client reads it: `JSON.parse(body.error)` must give the
 * ticket with `id`, `uuid`, `userId`, `user.name` and `queue.name`. The code moves to `code`, and our
 * own details stay beside it.
 */
function legacyOtherOpenTicket(body: Record<string, unknown>): Record<string, unknown> {
  const ticket = {
    id: body.ticketId,
    uuid: body.uuid,
    status: body.status,
    userId: body.userId ?? null,
    user: typeof body.userName === 'string' ? { id: body.userId, name: body.userName } : null,
    queue: typeof body.queueName === 'string' ? { name: body.queueName } : null,
  }
  return { ...body, error: JSON.stringify(ticket), code: 'ERR_OTHER_OPEN_TICKET' }
}

export const httpErrors = (logger: Logger, options: { legacyClientErrors?: boolean } = {}) =>
  new Elysia({ name: 'http-errors' }).onError({ as: 'global' }, ({ code, error: raised, request }) => {
    // Elysia wraps what a body parser throws in a ParseError (a body refused while being read:
    // core/body-limits.ts, the contacts upload): the parser's own AppError (413) still decides.
    const error = code === 'PARSE' && raised.cause instanceof AppError ? raised.cause : raised
    if (error instanceof AppError) {
      const body = error.toBody()
      const legacy = options.legacyClientErrors && error.code === 'ERR_OTHER_OPEN_TICKET' && typeof body.uuid === 'string'
      const response = json(error.status, legacy ? legacyOtherOpenTicket(body) : body)
      if (error.code === 'ERR_TOO_MANY_REQUESTS') response.headers.set('retry-after', String(error.details?.retryAfterSeconds ?? 60))
      return response
    }
    if (code === 'VALIDATION' && error instanceof ValidationError) {
      return json(422, validationBody(fieldsOf(error)))
    }
    if (code === 'NOT_FOUND') return json(404, { error: 'ERR_NOT_FOUND' })
    if (code === 'PARSE') return json(400, validationBody([{ field: 'body', message: 'could not be parsed' }]))
    if (code === 'INVALID_COOKIE_SIGNATURE') return json(401, { error: 'ERR_UNAUTHORIZED' })
    // Constraint races that a service did not anticipate still answer cleanly, never with a 500.
    if (isUniqueViolation(error)) return json(409, validationBody([{ field: 'unique', message: 'already exists' }]))
    if (isForeignKeyViolation(error)) return json(422, validationBody([{ field: 'reference', message: 'refers to a record that does not exist' }]))
    // A value the schemas let through but PostgreSQL refuses is still the request's fault (logged: a schema should catch it).
    if (isDataException(error)) {
      logger.warn('a request value refused by the database', { method: request.method, url: new URL(request.url).pathname, error })
      return json(422, validationBody([{ field: 'value', message: 'is out of range or cannot be stored' }]))
    }
    // A database outage: the client may try again (the inbound spool keeps WhatsApp's messages meanwhile).
    if (isDatabaseUnavailable(error)) {
      logger.warn('database unavailable', { method: request.method, url: new URL(request.url).pathname, error })
      const response = json(503, { error: 'ERR_SERVICE_UNAVAILABLE' })
      response.headers.set('retry-after', '5')
      return response
    }
    if (typeof code === 'number' && code < 500) return json(code, { error: code === 413 ? 'ERR_PAYLOAD_TOO_LARGE' : 'ERR_VALIDATION' })
    logger.error('unhandled request error', { method: request.method, url: new URL(request.url).pathname, error })
    return json(500, { error: 'ERR_INTERNAL_SERVER_ERROR' })
  })
