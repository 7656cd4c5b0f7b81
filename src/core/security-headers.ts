// Headers every answer carries: nosniff (a JSON answer or an uploaded file is never run as a script or
// a page). The API documentation page also gets a CSP and frame refusal: it is HTML of ours on our
// origin, and its one inline script is the Swagger UI bootstrap (hence 'unsafe-inline' for scripts
// there only; no user content is rendered into it).
import { Elysia } from 'elysia'

const SWAGGER_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

function isSwaggerPage(pathname: string): boolean {
  return pathname === '/swagger' || pathname === '/swagger/'
}

export const securityHeaders = () =>
  new Elysia({ name: 'security-headers' })
    .onRequest(({ set, request }) => {
      set.headers['x-content-type-options'] = 'nosniff'
      if (isSwaggerPage(new URL(request.url).pathname)) {
        set.headers['content-security-policy'] = SWAGGER_CSP
        set.headers['x-frame-options'] = 'DENY'
        set.headers['referrer-policy'] = 'no-referrer'
      }
    })
    .as('global')
