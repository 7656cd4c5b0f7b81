// GET /metrics (Prometheus text format, Bearer METRICS_TOKEN) and the health probes:
// /health/live (the process answers) and /health/ready (database, Redis, migrations; owned sessions told).
import { Elysia } from 'elysia'
import { timingSafeEqual } from 'node:crypto'
import type { CoreDeps } from '../deps.ts'
import { readinessChecks } from './readiness.ts'

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** options.draining: the instance is stopping (SIGTERM): readiness fails first, so that proxies send nothing new. */
export function operationsRoutes(deps: CoreDeps, options: { ownedSessions: () => number; draining?: () => boolean }) {
  const ready = readinessChecks(deps)
  return new Elysia({ name: 'operations' })
    .get('/health/live', () => ({ status: 'ok' as const }), { detail: { hide: true } })
    .get(
      '/health/ready',
      async ({ status }) => {
        if (options.draining?.()) return status(503, { status: 'draining' as const, checks: {}, ownedSessions: options.ownedSessions() })
        const checks = await ready()
        const body = { status: checks.ok ? ('ok' as const) : ('failing' as const), checks: checks.results, ownedSessions: options.ownedSessions() }
        return checks.ok ? body : status(503, body)
      },
      { detail: { hide: true } },
    )
    .get(
      '/metrics',
      async ({ headers, status, set }) => {
        const token = deps.config.metricsToken
        // Without a token configured the endpoint does not exist: nothing is exposed by default.
        if (!token) return status(404, { error: 'ERR_NOT_FOUND' })
        const given = headers.authorization?.match(/^Bearer (.+)$/)?.[1]
        if (!given || !sameToken(given, token)) return status(401, { error: 'ERR_UNAUTHORIZED' })
        set.headers['content-type'] = deps.metrics.registry.contentType
        return deps.metrics.registry.metrics()
      },
      { detail: { hide: true } },
    )
}
