// Composes the module plugins under /api, the error mapping and the API documentation.
import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import { join } from 'node:path'
import packageJson from '../package.json' with { type: 'json' }
import type { Deps } from './modules/deps.ts'
import { httpErrors } from './core/http-errors.ts'
import { securityHeaders } from './core/security-headers.ts'
import { cors } from './core/cors.ts'
import { bodyLimits, MULTIPART_OVERHEAD_BYTES } from './core/body-limits.ts'
import { jsonBody } from './core/json-body.ts'
import { MAX_FRAME_BYTES } from './core/realtime/frame-limits.ts'
import { RealtimeHub } from './core/realtime/hub.ts'
import { realtimeRoutes } from './core/realtime/routes.ts'
import { socketIoRoutes } from './core/realtime/socket-io-routes.ts'
import { wireRealtime } from './core/realtime/wiring.ts'
import { listenDomainEvents } from './modules/listeners.ts'
import { publicMediaRoutes } from './core/storage/routes.ts'
import { createConnectionManager, type ConnectionManager } from './channels/sessions/manager.ts'
import { providerFactories } from './channels/sessions/factories.ts'
import { sessionClusterFor, type SessionCluster } from './channels/sessions/cluster.ts'
import { createInboundPipeline } from './channels/inbound/pipeline.ts'
import { recoverMediaOnConnect } from './channels/inbound/media-recovery.ts'
import { createDurableInbound } from './channels/inbound/durable-sink.ts'
import { createSimulator, type Simulator } from './channels/simulator/simulator.ts'
import { wireChatbot } from './modules/chatbot/wiring.ts'
import { aiAnswerRoutes } from './modules/ai-answers/routes.ts'
import { deliverTask } from './modules/messages/send.ts'
import { whatsappRoutes } from './modules/whatsapp/routes.ts'
import { simulatorRoutes } from './channels/simulator/control/routes.ts'
import { simulatorTasks } from './channels/simulator/control/service.ts'
import { authRoutes } from './modules/auth/routes.ts'
import { twoFactorRoutes } from './modules/auth/two-factor-routes.ts'
import { auditRoutes } from './modules/audit/routes.ts'
import { requestContext } from './core/request-context.ts'
import type { Server } from 'bun'
import { planRoutes } from './modules/plans/routes.ts'
import { companyRoutes } from './modules/companies/routes.ts'
import { billingRoutes } from './modules/billing/routes.ts'
import { passwordResetRoutes } from './modules/password-reset/routes.ts'
import { versionRoutes } from './modules/version/routes.ts'
import { userRoutes } from './modules/users/routes.ts'
import { settingRoutes } from './modules/settings/routes.ts'
import { helpRoutes } from './modules/helps/routes.ts'
import { announcementRoutes } from './modules/announcements/routes.ts'
import { chatRoutes } from './modules/chats/routes.ts'
import { queueRoutes } from './modules/queues/routes.ts'
import { queueOptionRoutes } from './modules/queue-options/routes.ts'
import { tagRoutes } from './modules/tags/routes.ts'
import { quickMessageRoutes } from './modules/quick-messages/routes.ts'
import { scheduleRoutes } from './modules/schedules/routes.ts'
import { campaignRoutes, campaignSettingRoutes } from './modules/campaigns/routes.ts'
import { campaignDeliverTask } from './modules/campaigns/service.ts'
import { ticketNoteRoutes } from './modules/ticket-notes/routes.ts'
import { ticketMessenger } from './modules/messages/automatic-send.ts'
import { messageRoutes } from './modules/messages/routes.ts'
import { externalApiRoutes } from './modules/external-api/routes.ts'
import { contactRoutes } from './modules/contacts/routes.ts'
import { contactDataRoutes } from './modules/contacts/data-routes.ts'
import { dataRetentionRoutes } from './modules/data-retention/routes.ts'
import { ticketRoutes } from './modules/tickets/routes.ts'
import { ticketTagRoutes } from './modules/tickets/tag-routes.ts'
import { dashboardRoutes } from './modules/dashboard/routes.ts'
import { ticketVisibilityOf } from './modules/tickets/viewer.ts'
import { webPages } from './web/pages.ts'
import { promptRoutes } from './modules/prompts/routes.ts'
import { queueIntegrationRoutes } from './modules/queue-integrations/routes.ts'
import { contactListRoutes } from './modules/contact-lists/routes.ts'
import { contactListItemRoutes } from './modules/contact-lists/item-routes.ts'
import { wireContactListChecks } from './modules/contact-lists/service.ts'
import { fileListRoutes } from './modules/file-lists/routes.ts'
import { webhookRoutes } from './modules/webhooks/routes.ts'
import { httpMetrics } from './core/metrics/http.ts'
import { operationsRoutes } from './core/metrics/routes.ts'
import { plugMetricSources } from './core/metrics/sources.ts'

const swaggerAssets = join(import.meta.dir, '..', 'node_modules', 'swagger-ui-dist')

// The API in three groups: one long chain of .use() makes TypeScript's instantiation of the App type
// (which the Eden client reads) too deep to compute; grouped, each chain stays short.
const identityRoutes = (deps: Deps) =>
  new Elysia()
    .use(versionRoutes())
    .use(authRoutes(deps))
    .use(twoFactorRoutes(deps))
    .use(passwordResetRoutes(deps))
    .use(auditRoutes(deps))
    .use(planRoutes(deps))
    .use(companyRoutes(deps))
    .use(billingRoutes(deps))
    .use(userRoutes(deps))
    .use(settingRoutes(deps))
    .use(helpRoutes(deps))
    .use(announcementRoutes(deps))

const administrationRoutes = (deps: Deps, connections: ConnectionManager, simulator: Simulator | undefined) =>
  new Elysia()
    .use(whatsappRoutes(deps, connections))
    .use(simulatorRoutes(deps, simulator, connections))
    .use(queueRoutes(deps))
    .use(queueOptionRoutes(deps))
    .use(tagRoutes(deps))
    .use(quickMessageRoutes(deps))
    .use(scheduleRoutes(deps))
    .use(campaignRoutes(deps))
    .use(campaignSettingRoutes(deps))
    .use(promptRoutes(deps))
    .use(aiAnswerRoutes(deps))
    .use(queueIntegrationRoutes(deps))
    .use(contactListRoutes(deps))
    .use(contactListItemRoutes(deps))
    .use(fileListRoutes(deps))
    .use(webhookRoutes(deps))

const serviceDeskRoutes = (deps: Deps, connections: ConnectionManager) =>
  new Elysia()
    .use(ticketNoteRoutes(deps))
    .use(messageRoutes(deps, connections))
    .use(externalApiRoutes(deps, connections))
    .use(contactRoutes(deps, connections))
    .use(contactDataRoutes(deps))
    .use(dataRetentionRoutes(deps))
    .use(ticketRoutes(deps, ticketMessenger(deps, connections)))
    .use(ticketTagRoutes(deps))
    .use(chatRoutes(deps))
    .use(dashboardRoutes(deps))

export const apiRoutes = (deps: Deps, connections: ConnectionManager, simulator: Simulator | undefined) =>
  new Elysia({ prefix: '/api' })
    .use(identityRoutes(deps))
    .use(administrationRoutes(deps, connections, simulator))
    .use(serviceDeskRoutes(deps, connections))

/** 1012 "service restart": what a socket is closed with when its instance stops; the client reconnects at once. */
export const SERVICE_RESTART = 1012

export type InstanceOptions = {
  /** This instance among others (Redis leases when REDIS_URL is set; tests pass their own). */
  sessions?: SessionCluster
  /**
   * The simulated WhatsApp network, used when WHATSAPP_SIMULATOR is on; a new one when not given.
   * Instances that must share phones and outboxes (scaled-out tests, main.ts across hot reloads) are
   * handed the same one; the app exposes it as `app.decorator.simulator`.
   */
  simulator?: Simulator
}

/**
 * What every instance is made of, whatever it serves: the realtime hub, the domain listeners, the inbound
 * pipeline and the WhatsApp sessions. deps.config.role says what runs here: a web instance hosts no
 * session (the connection manager hands them to the workers) and starts no background checks; a
 * worker has no socket to deliver frames to.
 */
function composeInstance(deps: Deps, options: InstanceOptions) {
  const { role } = deps.config
  const hub = new RealtimeHub(ticketVisibilityOf(deps.db))
  const unwire = role === 'worker' ? () => {} : wireRealtime(deps, hub)
  const unlisten = listenDomainEvents(deps)
  // What connections report goes through the inbound pipeline; the pipeline reaches the providers
  // back through the manager (to reject calls, mark read), hence the closure.
  const pipeline = createInboundPipeline(deps, { registry: { providerFor: (ref) => connections.providerFor(ref) } })
  const cluster = options.sessions ?? sessionClusterFor(deps.config, deps.logger)
  const network = options.simulator ?? createSimulator({ logger: deps.logger, now: deps.now, outboxFile: deps.config.simulatorOutboxFile })
  const simulator = deps.config.whatsappSimulator ? network : undefined
  // Scaled out, the simulator's controls run where the phone's session is (its owner).
  const simulatorOwnerTasks = simulator ? Object.values(simulatorTasks(simulator)) : []
  // Every message is on this instance's disk before the pipeline stores it (a DB outage or a crash loses none).
  const inbound = createDurableInbound(deps, pipeline)
  // Scaled out, a send runs on the instance owning the session (messages/send.ts).
  const connections = createConnectionManager(deps, {
    sink: inbound,
    factories: providerFactories(deps, simulator),
    cluster,
    ownerTasks: [deliverTask, campaignDeliverTask, ...simulatorOwnerTasks],
  })
  wireChatbot(deps, pipeline, connections)
  // Contact list numbers are checked with WhatsApp in the background as they arrive; a web instance
  // leaves them to the workers' minutely job (its events do not reach them).
  const unwireContactListChecks = role === 'web' ? () => {} : wireContactListChecks(deps, connections)
  // A media download that died with a process is tried again once its session is CONNECTED here.
  const stopMediaRecovery = recoverMediaOnConnect(deps, pipeline, connections)
  const unplugMetrics = plugMetricSources(deps, hub)
  let draining = false
  let closing: Promise<void> | undefined
  const instance = {
    role,
    /** Set by beginDrain(): readiness answers 503, so that a proxy sends nothing new here. */
    get draining() {
      return draining
    },
    /** The first step of a graceful stop: not ready any more, and every socket closed with 1012. */
    beginDrain() {
      draining = true
      return hub.closeAll(SERVICE_RESTART, 'service restart')
    },
    /** Unwires everything and writes the inbound spool out (the sessions are closed apart, first); once. */
    close(): Promise<void> {
      closing ??= (async () => {
        unwire()
        unlisten()
        unwireContactListChecks()
        stopMediaRecovery()
        unplugMetrics()
        await inbound.close()
      })()
      return closing
    },
  }
  return { hub, connections, network, simulator, instance }
}

/** The HTTP side of an instance of role all or web: the API, the websockets, the web pages. */
export function createApp(deps: Deps, options: InstanceOptions = {}) {
  const { hub, connections, network, simulator, instance } = composeInstance(deps, options)
  const requestMaxBytes = deps.config.media.maxBytes + MULTIPART_OVERHEAD_BYTES
  // Annotated apart from the app's own initializer, which would otherwise type itself circularly.
  const serverOf = (): Server<unknown> | null => app.server
  // Bun refuses a larger body itself, before buffering it (its default is 128 MiB).
  const app = new Elysia({ serve: { maxRequestBodySize: requestMaxBytes }, websocket: { maxPayloadLength: MAX_FRAME_BYTES } })
    .decorate('realtimeHub', hub)
    .decorate('connections', connections)
    .decorate('simulator', network)
    .decorate('instance', instance)
    .onStop(() => instance.close())
    // Every request runs with its address and user agent at hand, for the audit log (core/request-context.ts).
    .use(requestContext({ trustProxy: deps.config.trustProxy, server: serverOf }))
    .use(httpMetrics(deps.metrics))
    .use(httpErrors(deps.logger, { legacyClientErrors: deps.config.legacyClientErrors }))
    .use(securityHeaders())
    .use(cors({ origins: deps.config.corsOrigins }))
    .use(bodyLimits({ jsonMaxBytes: deps.config.jsonMaxBytes, requestMaxBytes, largeJsonPaths: ['/api/contacts/upload'] }))
    .use(jsonBody({ ownParsers: ['/api/contacts/upload'] }))
    .use(
      openapi({
        path: '/swagger',
        provider: 'swagger-ui',
        // The UI's scripts come from our own node_modules, so /swagger works offline.
        swagger: { cdn: '/swagger-assets/swagger-ui-bundle.js', theme: '/swagger-assets/swagger-ui.css' },
        documentation: {
          info: { title: 'Zapdesk API', version: packageJson.version, description: 'Multi-company WhatsApp customer service.' },
          components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
          security: [{ bearer: [] }],
        },
      }),
    )
    .get('/swagger-assets/:file', ({ params, status }) => {
      if (!/^[\w.-]+\.(js|css)$/.test(params.file)) return status(404, { error: 'ERR_NOT_FOUND' })
      return Bun.file(join(swaggerAssets, params.file))
    }, { detail: { hide: true } })
    .use(operationsRoutes(deps, { ownedSessions: () => connections.ownedSessions(), draining: () => instance.draining }))
    .use(apiRoutes(deps, connections, simulator))
    .use(realtimeRoutes(deps, hub))
    .use(socketIoRoutes(deps, hub, deps.config.socketIo))
    .use(publicMediaRoutes(deps, deps.storage))
    .use(webPages(deps))
  return app
}

export type App = ReturnType<typeof createApp>

/**
 * An instance of role worker: the sessions, the jobs (main.ts starts them) and realtime published
 * through Redis, with no API and no websocket. It answers only /health/live, /health/ready and
 * /metrics, for the orchestrator's probes and Prometheus.
 */
export function createWorkerApp(deps: Deps, options: InstanceOptions = {}) {
  const { hub, connections, network, instance } = composeInstance(deps, options)
  return new Elysia()
    .decorate('realtimeHub', hub)
    .decorate('connections', connections)
    .decorate('simulator', network)
    .decorate('instance', instance)
    .onStop(() => instance.close())
    .use(httpMetrics(deps.metrics))
    .use(httpErrors(deps.logger))
    .use(operationsRoutes(deps, { ownedSessions: () => connections.ownedSessions(), draining: () => instance.draining }))
}
