// Boot: config -> database -> migrations -> seed -> app -> listen; graceful shutdown on signals.
// The role (ZAPDESK_ROLE, `serve --role`) says what this process runs: all of it, the HTTP side (web),
// or the sessions and jobs (worker). README "Run in production".
import { loadConfig, type Config } from './config.ts'
import { migrateDatabase, openDatabase, surviveDroppedPostgresSocket, withStartupLock, type DatabaseHandle } from '../db/client.ts'
import { createApp, createWorkerApp } from './app.ts'
import { createDeps } from './modules/deps.ts'
import { createMetrics } from './core/metrics/registry.ts'
import { createSimulator, type Simulator } from './channels/simulator/simulator.ts'
import { createLogger } from './core/logger.ts'
import { seedDemoConnection, seedPlatform } from './seed.ts'
import type { ConnectionManager } from './channels/sessions/manager.ts'
import { createJobQueue, type JobQueue } from '../jobs/queue.ts'
import { startTicketTimers } from '../jobs/ticket-timers.ts'
import { startAuditPurge } from '../jobs/audit-purge.ts'
import { startScheduledMessages } from '../jobs/scheduled-messages.ts'
import { startCampaigns } from '../jobs/campaigns.ts'
import { startDataRetention } from '../jobs/data-retention.ts'
import { startContactListChecks } from '../jobs/contact-list-checks.ts'
import { startWebhookDeliveries } from '../jobs/webhook-deliveries.ts'
import { startAiAnswerSweep } from '../jobs/ai-answers.ts'
import { startIntegrationExchangeSweep } from '../jobs/integration-exchanges.ts'
import { sealLegacyPromptKeys } from './modules/prompts/service.ts'
import { sealLegacyIntegrationKeys } from './modules/queue-integrations/service.ts'
import { sealLegacySecretSettings } from './modules/settings/service.ts'
import { sealLegacyConnectionTokens } from './modules/whatsapp/connection-token.ts'
import { sealLegacyAuthKeys } from './channels/baileys/auth-sealing.ts'
import { createSecretBox } from './core/crypto/secret-box.ts'
import { startBilling } from '../jobs/billing.ts'
import { settledWithin } from './core/settled-within.ts'

/** web and worker share the work through PostgreSQL and Redis; PGlite and the in-process queue are one process's. */
export function assertRoleFits(config: Pick<Config, 'role' | 'databaseUrl' | 'redisUrl'>): void {
  if (config.role === 'all') return
  const missing = [!config.databaseUrl && 'DATABASE_URL (PostgreSQL)', !config.redisUrl && 'REDIS_URL'].filter(Boolean)
  if (missing.length > 0) {
    throw new Error(
      `role ${config.role} needs ${missing.join(' and ')}: web and worker instances share the database, the session leases and the job queue, ` +
        'which the embedded PGlite database and the in-process queue cannot. Run with role all (the default), or set them.',
    )
  }
}

export async function startServer() {
  const config = loadConfig()
  assertRoleFits(config)
  const logger = createLogger(config.logLevel)
  // A database outage must not end the process (the inbound spool keeps the messages meanwhile).
  if (config.databaseUrl) surviveDroppedPostgresSocket((error) => logger.error('database connection dropped mid-write', { error }))
  // Under `bun --hot` this module re-runs on each edit: keep the database across reloads.
  const globals = globalThis as {
    __zapdeskDb?: Promise<DatabaseHandle>
    __zapdeskConnections?: ConnectionManager
    __zapdeskJobs?: JobQueue
    __zapdeskSimulator?: Simulator
  }
  // Instances starting together (a deploy) migrate and seed one at a time.
  let seeded: Awaited<ReturnType<typeof seedPlatform>> | undefined
  globals.__zapdeskDb ??= openDatabase(config).then((handle) =>
    withStartupLock(handle, async () => {
      await migrateDatabase(handle)
      seeded = await seedPlatform(handle.db, { adminPassword: config.adminPassword, demo: config.seedDemo })
      return handle
    }),
  )
  const database = await globals.__zapdeskDb
  const redis = config.redisUrl ? new (await import('ioredis')).default(config.redisUrl, { maxRetriesPerRequest: null }) : undefined
  // After a hot reload the database was kept: the seed (idempotent) runs again.
  seeded ??= await seedPlatform(database.db, { adminPassword: config.adminPassword, demo: config.seedDemo })
  const deps = createDeps({ db: database.db, config, redis, logger, metrics: createMetrics({ defaultMetrics: true }) })
  // Credentials stored before they were sealed at rest (AI keys, integration keys, the payment token,
  // connection API tokens, WhatsApp session keys) are sealed now, once.
  const sealedCredentials =
    (await sealLegacyPromptKeys(deps)) + (await sealLegacyIntegrationKeys(deps)) + (await sealLegacySecretSettings(deps)) +
    (await sealLegacyConnectionTokens(deps)) +
    (await sealLegacyAuthKeys(deps.db, createSecretBox(config.secretsKey)))
  if (sealedCredentials > 0) logger.info('stored credentials sealed with SECRETS_KEY', { count: sealedCredentials })
  // The simulated WhatsApp network (WHATSAPP_SIMULATOR) must not forget its phones and outboxes either.
  const simulator = config.whatsappSimulator ? (globals.__zapdeskSimulator ??= createSimulator({ logger, now: deps.now, outboxFile: config.simulatorOutboxFile })) : undefined
  // No SO_REUSEPORT: a second server on a taken port must fail, not silently share its requests.
  // A worker listens too, for /health and /metrics only.
  const listen = { port: config.port, hostname: config.host, reusePort: false }
  const app = config.role === 'worker' ? createWorkerApp(deps, { simulator }).listen(listen) : createApp(deps, { simulator }).listen(listen)
  // WhatsApp sessions that were up resume, staggered. After a hot reload the previous run's sessions
  // are closed first, so that a connection never has two sockets.
  const { connections } = app.decorator
  await globals.__zapdeskConnections?.close()
  globals.__zapdeskConnections = connections
  void connections.resumeAll().catch((error: unknown) => logger.error('whatsapp sessions could not resume', { error }))
  // One job queue for the process (BullMQ on REDIS_URL); a hot reload replaces the previous run's.
  // The ticket timers (expiresTicket, timeToTransfer, unanswered ratings) sweep every minute.
  await globals.__zapdeskJobs?.close()
  // A web instance only adds jobs (the workers run them); the same start functions register them.
  const jobs = (globals.__zapdeskJobs = createJobQueue(config, logger, deps.metrics))
  await startTicketTimers(deps, connections, jobs)
  // Scheduled messages go out from the same queue, checked every 30 s.
  await startScheduledMessages(deps, connections, jobs)
  // Campaigns: dispatched when started, and swept so that a run that died goes on from its rows.
  await startCampaigns(deps, connections, jobs, { sweepEveryMs: config.campaignSweepMs, leaseMs: config.campaignLeaseMs })
  // Data retention: each company's old closed tickets' messages, once a day (checked hourly).
  await startDataRetention(deps, jobs)
  // The audit log's retention, once a day.
  await startAuditPurge(deps, jobs)
  // Contact list numbers left unchecked (a restart, no connection up), every minute.
  await startContactListChecks(deps, connections, jobs)
  // Company webhooks: each delivery is a job as soon as its outbox row is written; retries are delayed jobs; a sweep catches the rest.
  await startWebhookDeliveries(deps, jobs)
  // AI answers left running by a process that died: retried once or handed to the queue, every 30 s.
  await startAiAnswerSweep(deps, jobs)
  await startIntegrationExchangeSweep(deps, jobs)
  // Billing: next invoices, expiry, reminders, webhook retries (daily work, checked hourly).
  await startBilling(deps, jobs)
  if (config.seedDemo && config.whatsappSimulator) {
    const demoConnection = await seedDemoConnection(deps, connections)
    if (demoConnection) logger.info('demo simulator connection created', demoConnection)
  }

  logger.info('zapdesk is listening', { url: config.publicUrl, role: config.role, database: database.kind, jobs: redis ? 'redis' : 'in-process', instanceId: connections.instanceId })
  if (config.role === 'worker') console.log(`\n  Zapdesk worker is running (sessions and jobs); health on port ${config.port}\n`)
  else console.log(`\n  Zapdesk is running at ${config.publicUrl}${config.role === 'web' ? ' (web)' : ''}\n  API documentation: ${config.publicUrl}/swagger\n`)
  if (seeded.created.length > 0) {
    console.log('  Accounts created on this first start (the passwords are shown only now):')
    for (const account of seeded.created) console.log(`    ${account.role.padEnd(10)} ${account.email}  password: ${account.password}`)
    console.log('')
  }

  // Graceful stop (SIGTERM from the orchestrator, Ctrl-C): not ready any more and no new connection;
  // the sockets closed with 1012 (the client reconnects to another instance); no new job, the running
  // ones and the requests in flight finish within half the deadline (jobs past it go back to the
  // queue); the sessions closed and their leases released, so that another instance adopts them at
  // once; then the database and Redis. Past SHUTDOWN_TIMEOUT_MS the process exits anyway (code 1).
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    const startedAt = Date.now()
    const deadline = config.shutdownTimeoutMs
    logger.info('shutting down', { signal, role: config.role, deadlineMs: deadline })
    const forced = setTimeout(() => {
      logger.error('graceful shutdown took longer than SHUTDOWN_TIMEOUT_MS; exiting now', { deadlineMs: deadline })
      process.exit(1)
    }, deadline)
    const left = () => Math.max(0, deadline - (Date.now() - startedAt))
    const { instance } = app.decorator
    try {
      // Stops accepting at once; resolves when the requests in flight are answered.
      const serverStopped = app.server ? app.server.stop(false) : Promise.resolve()
      const sockets = instance.beginDrain()
      // The running jobs and requests finish while the sessions are still here (a send in flight,
      // here or asked by another instance, goes out), for at most half the deadline.
      const drainMs = Math.floor(left() / 2)
      const [, answered] = await Promise.all([jobs.close({ drainMs }), settledWithin(serverStopped, drainMs)])
      // Sockets first, leases after (manager.ts): another instance adopts each session at once.
      await connections.close()
      if (!answered) await app.server?.stop(true)
      await instance.close()
      await redis?.quit()
      await database.close()
      logger.info('stopped', { signal, sockets, ms: Date.now() - startedAt })
      clearTimeout(forced)
      process.exit(0)
    } catch (error) {
      logger.error('graceful shutdown failed', { error })
      process.exit(1)
    }
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  return app
}

if (import.meta.main) {
  startServer().catch((error) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
