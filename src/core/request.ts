// Small helpers for what routes read off the request.
import type { Server } from 'bun'

/**
 * The client's address, for rate limits. Behind `trustedHops` proxies (TRUST_PROXY) it is the
 * X-Forwarded-For entry that many hops from the right: entries further left were written by the
 * client and prove nothing. Without trusted proxies the header is ignored.
 */
export function clientIp(request: Request, server: Server<unknown> | null, trustedHops: number): string {
  if (trustedHops > 0) {
    const hops = (request.headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop !== '')
    // Fewer entries than proxies: the leftmost one was still written by a proxy of ours.
    const forwarded = hops[Math.max(0, hops.length - trustedHops)]
    if (forwarded) return forwarded
  }
  return server?.requestIP(request)?.address ?? 'local'
}
