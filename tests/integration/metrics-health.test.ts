// /metrics and the health probes: the series move during an ingest burst on the simulated WhatsApp
// (inbound per connection, ingest lag, outbound, sessions by status, HTTP latency by route template,
// sockets), the token is required, and readiness names the check that fails.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { tickets, whatsapps } from '../../db/schema/index.ts'
import { createInProcessQueue } from '../../jobs/queue.ts'
import { Type } from '@sinclair/typebox'
import { createTestContext } from '../helpers/context.ts'
import { makeTenant } from '../helpers/factories.ts'
import { waitFor } from '../helpers/fake-whatsapp.ts'
import { openSocket } from '../helpers/socket.ts'
import { readinessChecks } from '../../src/core/metrics/readiness.ts'
import { operationsRoutes } from '../../src/core/metrics/routes.ts'

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789'
const context = await createTestContext({ config: { whatsappSimulator: true, metricsToken: METRICS_TOKEN } })
context.simulator.configure({ qrDelayMs: 10, connectDelayMs: 20, ackDelayMs: 10 })

async function scrape(): Promise<string> {
  const response = await context.app.handle(new Request('http://localhost/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toContain('text/plain')
  return response.text()
}

/** The value of one series (name and exact label set as printed), 0 when absent. */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `))
  return line ? Number(line.slice(series.length + 1)) : 0
}

describe('/metrics', () => {
  test('answers 401 without the right token, and is absent without METRICS_TOKEN', async () => {
    const bare = await context.app.handle(new Request('http://localhost/metrics'))
    expect(bare.status).toBe(401)
    const wrong = await context.app.handle(new Request('http://localhost/metrics', { headers: { authorization: 'Bearer nope' } }))
    expect(wrong.status).toBe(401)
    // The setting is read per request: without it the endpoint does not exist.
    const { config } = context.deps
    config.metricsToken = undefined
    try {
      expect((await context.app.handle(new Request('http://localhost/metrics'))).status).toBe(404)
    } finally {
      config.metricsToken = METRICS_TOKEN
    }
  })

  test('the series move during an ingest burst', async () => {
    const tenant = await makeTenant(context)
    const created = await tenant.asAdmin.api.whatsapp.post({ name: 'Loja', provider: 'simulator' })
    const whatsappId = created.data!.id
    await waitFor(async () => (await context.db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId)))[0]?.status === 'CONNECTED')
    const socket = await openSocket(context.listen(), tenant.adminToken)
    const before = await scrape()
    const connection = `connection="${whatsappId}"`

    const burst = 12
    await Promise.all(
      Array.from({ length: burst }, (_, index) =>
        tenant.asAdmin.api.simulator({ whatsappId }).inbound.post({ from: `55119000000${String(index).padStart(2, '0')}`, body: `oi ${index}` }),
      ),
    )
    let ticketId = 0
    await waitFor(async () => {
      const rows = await context.db.select().from(tickets).where(eq(tickets.companyId, tenant.company.id))
      ticketId = rows[0]?.id ?? 0
      return rows.length === burst
    })
    const sent = await tenant.asAdmin.api.messages({ id: ticketId }).post({ body: 'Olá!' })
    expect(sent.status).toBe(200)
    const after = await scrape()
    socket.close()

    expect(valueOf(after, `zapdesk_inbound_messages_total{${connection}}`) - valueOf(before, `zapdesk_inbound_messages_total{${connection}}`)).toBe(burst)
    expect(valueOf(after, `zapdesk_outbound_messages_total{${connection},result="sent"}`)).toBe(1)
    expect(valueOf(after, 'zapdesk_ingest_lag_seconds_count') - valueOf(before, 'zapdesk_ingest_lag_seconds_count')).toBe(burst)
    expect(valueOf(after, 'zapdesk_whatsapp_sessions{status="CONNECTED"}')).toBeGreaterThanOrEqual(1)
    expect(valueOf(after, 'zapdesk_websocket_connections')).toBeGreaterThanOrEqual(1)
    // Latency by route template: the ticket's id never appears in a label.
    const route = 'zapdesk_http_request_duration_seconds_count{method="POST",route="/api/simulator/:whatsappId/inbound",status="200"}'
    // Observed once the response is out (onAfterResponse): awaited, not assumed.
    await waitFor(async () => valueOf(await scrape(), route) - valueOf(before, route) === burst)
    expect(after).not.toContain(`route="/api/messages/${ticketId}"`)
    expect(after).toContain('zapdesk_session_lease_changes_total{change="taken"}')
  })

  test('job queue depth and failures per queue', async () => {
    const queue = createInProcessQueue({ logger: context.deps.logger, metrics: context.deps.metrics })
    const failing = { name: 'metrics-test.failing', payload: Type.Object({}), attempts: 1, handle: async () => Promise.reject(new Error('boom')) }
    const later = { name: 'metrics-test.later', payload: Type.Object({}), handle: async () => {} }
    await queue.enqueue(later, {}, { delayMs: 60_000 })
    await queue.enqueue(failing, {})
    await waitFor(async () => valueOf(await scrape(), 'zapdesk_job_failures_total{queue="metrics-test.failing",final="true"}') === 1)
    expect(valueOf(await scrape(), 'zapdesk_jobs_waiting{queue="metrics-test.later"}')).toBe(1)
    await queue.close()
  })
})

describe('health', () => {
  test('live and ready answer 200 with every check passing', async () => {
    const live = await context.app.handle(new Request('http://localhost/health/live'))
    expect(live.status).toBe(200)
    const ready = await context.app.handle(new Request('http://localhost/health/ready'))
    expect(ready.status).toBe(200)
    const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean }>; ownedSessions: number }
    expect(body.status).toBe('ok')
    expect(body.checks.database?.ok).toBe(true)
    expect(body.checks.migrations?.ok).toBe(true)
    if (process.env.REDIS_URL) expect(body.checks.redis?.ok).toBe(true)
    expect(body.ownedSessions).toBeGreaterThanOrEqual(0)
  })

  test('ready answers 503, naming the check, when the database does not answer', async () => {
    const broken = { ...context.deps, db: { execute: () => Promise.reject(new Error('connection refused')) } as unknown as typeof context.deps.db }
    const response = await operationsRoutes(broken, { ownedSessions: () => 0 }).handle(new Request('http://localhost/health/ready'))
    expect(response.status).toBe(503)
    const body = (await response.json()) as { status: string; checks: Record<string, unknown> }
    expect(body.status).toBe('failing')
    expect(body.checks.database).toEqual({ ok: false, error: 'connection refused' })
  })

  test('ready fails when a migration is not applied', async () => {
    // A database that answers, whose newest applied migration predates the newest one in db/migrations.
    const behind = { ...context.deps, redis: undefined, db: { execute: async () => [{ applied: '1' }] } as unknown as typeof context.deps.db }
    const result = await readinessChecks(behind)()
    expect(result.results).toEqual({ database: { ok: true }, migrations: { ok: false, error: 'migrations pending' } })
  })
})
