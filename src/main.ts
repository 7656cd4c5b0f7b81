// Boot: config -> database -> migrations -> seed -> app -> listen; graceful shutdown on signals.
import { loadConfig } from './config.ts'
import { migrateDatabase, openDatabase, surviveDroppedPostgresSocket, type DatabaseHandle } from '../db/client.ts'
import { createApp } from './app.ts'
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
import { sealLegacyPromptKeys } from './modules/prompts/service.ts'
import { sealLegacyIntegrationKeys } from './modules/queue-integrations/service.ts'
import { startBilling } from '../jobs/billing.ts'

export async function startServer() {
  const config = loadConfig()
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
  globals.__zapdeskDb ??= openDatabase(config).then(async (handle) => {
    await migrateDatabase(handle)
    return handle
  })
  const database = await globals.__zapdeskDb
  const redis = config.redisUrl ? new (await import('ioredis')).default(config.redisUrl, { maxRetriesPerRequest: null }) : undefined

  const seeded = await seedPlatform(database.db, { adminPassword: config.adminPassword, demo: config.seedDemo })
  const deps = createDeps({ db: database.db, config, redis, logger, metrics: createMetrics({ defaultMetrics: true }) })
  // Credentials stored before they were sealed at rest (AI keys, integration keys) are sealed now, once.
  const sealedCredentials = (await sealLegacyPromptKeys(deps)) + (await sealLegacyIntegrationKeys(deps))
  if (sealedCredentials > 0) logger.info('stored credentials sealed with SECRETS_KEY', { count: sealedCredentials })
  // The simulated WhatsApp network (WHATSAPP_SIMULATOR) must not forget its phones and outboxes either.
  const simulator = config.whatsappSimulator ? (globals.__zapdeskSimulator ??= createSimulator({ logger, now: deps.now, outboxFile: config.simulatorOutboxFile })) : undefined
  // No SO_REUSEPORT: a second server on a taken port must fail, not silently share its requests.
  const app = createApp(deps, { simulator }).listen({ port: config.port, hostname: config.host, reusePort: false })
  // WhatsApp sessions that were up resume, staggered. After a hot reload the previous run's sessions
  // are closed first, so that a connection never has two sockets.
  const { connections } = app.decorator
  await globals.__zapdeskConnections?.close()
  globals.__zapdeskConnections = connections
  void connections.resumeAll().catch((error: unknown) => logger.error('whatsapp sessions could not resume', { error }))
  // One job queue for the process (BullMQ on REDIS_URL); a hot reload replaces the previous run's.
  // The ticket timers (expiresTicket, timeToTransfer, unanswered ratings) sweep every minute.
  await globals.__zapdeskJobs?.close()
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
  // Billing: next invoices, expiry, reminders, webhook retries (daily work, checked hourly).
  await startBilling(deps, jobs)
  if (config.seedDemo && config.whatsappSimulator) {
    const demoConnection = await seedDemoConnection(deps, connections)
    if (demoConnection) logger.info('demo simulator connection created', demoConnection)
  }

  logger.info('zapdesk is listening', { url: config.publicUrl, database: database.kind, jobs: redis ? 'redis' : 'in-process', instanceId: connections.instanceId })
  console.log(`\n  Zapdesk is running at ${config.publicUrl}\n  API documentation: ${config.publicUrl}/swagger\n`)
  if (seeded.created.length > 0) {
    console.log('  Accounts created on this first start (the passwords are shown only now):')
    for (const account of seeded.created) console.log(`    ${account.role.padEnd(10)} ${account.email}  password: ${account.password}`)
    console.log('')
  }

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('shutting down', { signal })
    // Sockets close and leases are released but statuses stay: another instance (or the next boot)
    // resumes these connections.
    await connections.close()
    await jobs.close()
    await app.stop()
    await redis?.quit()
    await database.close()
    process.exit(0)
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
