// HTTP latency by route template. The template ('/api/tickets/:id'), never the raw URL: ids in
// paths would make one series per ticket. Unmatched requests share one label.
import { Elysia } from 'elysia'
import type { Metrics } from './registry.ts'

export function httpMetrics(metrics: Metrics) {
  // Keyed by the Request itself: nothing allocated per request beyond the entry, gone with the request.
  const started = new WeakMap<Request, number>()
  return new Elysia({ name: 'http-metrics' })
    .onRequest(({ request }) => {
      started.set(request, performance.now())
    })
    .onAfterResponse({ as: 'global' }, ({ request, route, set }) => {
      const start = started.get(request)
      if (start === undefined) return
      const status = typeof set.status === 'number' ? set.status : 200
      metrics.httpDuration.observe({ method: request.method, route: route || 'unmatched', status: String(status) }, (performance.now() - start) / 1000)
    })
}
