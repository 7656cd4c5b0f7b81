// Cross-origin use of the API (CORS_ORIGINS): a web client served from another origin, such as a
// Whaticket-family frontend kept on its own domain, may call the API with its cookie (the refresh
// token) only when its origin is listed. Unlisted origins get no CORS headers at all, so the browser
// keeps refusing them; same-origin requests (our own web app) never need any.
import { Elysia } from 'elysia'

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS'
const ALLOWED_HEADERS = 'authorization, content-type, x-requested-with'
/** What a cross-origin client may read besides the simple headers (the grace-period warning). */
const EXPOSED_HEADERS = 'x-subscription-expired'
/** Browsers cache a preflight this long (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200

/** An origin as browsers send it: scheme, host and port, no path, no trailing slash, lower case. */
export function normaliseOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
    return url.origin.toLowerCase()
  } catch {
    return undefined
  }
}

export const cors = (options: { origins: readonly string[] }) => {
  const allowed = new Set(options.origins.map(normaliseOrigin).filter((origin): origin is string => Boolean(origin)))
  return new Elysia({ name: 'cors' })
    .onRequest(({ request, set }) => {
      const origin = request.headers.get('origin')
      const listed = origin !== null && allowed.has(origin.toLowerCase())
      // The answer depends on the Origin header: caches must not hand one origin's answer to another.
      if (allowed.size > 0) set.headers.vary = 'Origin'
      if (listed) {
        set.headers['access-control-allow-origin'] = origin
        set.headers['access-control-allow-credentials'] = 'true'
        set.headers['access-control-expose-headers'] = EXPOSED_HEADERS
      }
      const preflight = request.method === 'OPTIONS' && request.headers.has('access-control-request-method')
      if (!preflight) return
      if (listed) {
        set.headers['access-control-allow-methods'] = ALLOWED_METHODS
        set.headers['access-control-allow-headers'] = request.headers.get('access-control-request-headers') ?? ALLOWED_HEADERS
        set.headers['access-control-max-age'] = String(PREFLIGHT_MAX_AGE_SECONDS)
      }
      // Answered here, whatever the path: a preflight never reaches a route (nor its 404).
      set.status = 204
      return new Response(null, { status: 204, headers: set.headers as Record<string, string> })
    })
    .as('global')
}
