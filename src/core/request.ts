// Small helpers for what routes read off the request.
import type { Server } from 'bun'

/** The client's address, for rate limits. Behind a proxy (TRUST_PROXY) the first X-Forwarded-For hop. */
export function clientIp(request: Request, server: Server<unknown> | null, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return server?.requestIP(request)?.address ?? 'local'
}
