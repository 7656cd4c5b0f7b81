// The Prometheus series of one app (GET /metrics). A registry per app, never prom-client's global
// default one: test contexts run side by side in one process and must not count into each other.
// Label values are bounded: route templates (never raw URLs), connection ids, job names, statuses.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** What a gauge reads at scrape time (sockets, session statuses, queue depths); set by whoever owns the figure. */
export type GaugeSource = () => Promise<Array<{ labels: Record<string, string>; value: number }>> | Array<{ labels: Record<string, string>; value: number }>

export type Metrics = ReturnType<typeof createMetrics>

export function createMetrics(options: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry()
  // Process figures (CPU, memory, event loop lag): only for the real process, where they mean something.
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, prefix: 'zapdesk_' })
  const sources = {
    websockets: [] as GaugeSource[],
    sessions: [] as GaugeSource[],
    jobsWaiting: [] as GaugeSource[],
  }
  /** A gauge whose value is read from its sources at every scrape (several apps may share nothing, so it is per registry). */
  const sourcedGauge = (name: string, help: string, labelNames: string[], list: GaugeSource[]) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset()
        for (const source of list) for (const { labels, value } of await source()) this.inc(labels, value)
      },
    })

  const inboundMessages = new Counter({
    name: 'zapdesk_inbound_messages_total',
    help: 'WhatsApp messages received, per connection',
    labelNames: ['connection'] as const,
    registers: [registry],
  })
  // The inbound hot path bumps a child kept per connection: no label object or string per message.
  const inboundChildren = new Map<number, { inc(): void }>()

  return {
    registry,
    sources,
    /** Counts one message received on the connection. */
    countInbound(whatsappId: number): void {
      let child = inboundChildren.get(whatsappId)
      if (!child) {
        child = inboundMessages.labels(String(whatsappId))
        inboundChildren.set(whatsappId, child)
      }
      child.inc()
    },
    httpDuration: new Histogram({
      name: 'zapdesk_http_request_duration_seconds',
      help: 'HTTP request latency by method, route template and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    outboundMessages: new Counter({
      name: 'zapdesk_outbound_messages_total',
      help: 'WhatsApp messages sent, per connection and result',
      labelNames: ['connection', 'result'] as const,
      registers: [registry],
    }),
    ingestLag: new Histogram({
      name: 'zapdesk_ingest_lag_seconds',
      help: "From an inbound message's WhatsApp timestamp to it being stored",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    jobFailures: new Counter({
      name: 'zapdesk_job_failures_total',
      help: 'Job runs that threw, per job name (final = no retry left)',
      labelNames: ['queue', 'final'] as const,
      registers: [registry],
    }),
    jobsWaiting: sourcedGauge('zapdesk_jobs_waiting', 'Jobs waiting or delayed, per job name', ['queue'], sources.jobsWaiting),
    websockets: sourcedGauge('zapdesk_websocket_connections', 'Open realtime sockets on this instance', [], sources.websockets),
    sessions: sourcedGauge('zapdesk_whatsapp_sessions', 'WhatsApp connections by stored status', ['status'], sources.sessions),
    leaseChanges: new Counter({
      name: 'zapdesk_session_lease_changes_total',
      help: 'WhatsApp session leases taken or released by this instance',
      labelNames: ['change'] as const,
      registers: [registry],
    }),
  }
}
