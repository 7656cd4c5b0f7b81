// Composes the module plugins under /api, the error mapping and the API documentation.
import { openapi } from '@elysiajs/openapi'
import { Elysia } from 'elysia'
import { join } from 'node:path'
import packageJson from '../package.json' with { type: 'json' }
import type { Deps } from './modules/deps.ts'
import { httpErrors } from './core/http-errors.ts'
import { bodyLimits, MULTIPART_OVERHEAD_BYTES } from './core/body-limits.ts'
import { RealtimeHub } from './core/realtime/hub.ts'
import { realtimeRoutes } from './core/realtime/routes.ts'
import { wireRealtime } from './core/realtime/wiring.ts'
import { listenDomainEvents } from './modules/listeners.ts'
import { publicMediaRoutes } from './core/storage/routes.ts'
import { createConnectionManager, type ConnectionManager } from './channels/sessions/manager.ts'
import { providerFactories } from './channels/sessions/factories.ts'
import { sessionClusterFor, type SessionCluster } from './channels/sessions/cluster.ts'
import { createInboundPipeline } from './channels/inbound/pipeline.ts'
import type { Simulator } from './channels/simulator/simulator.ts'
import { simulatorFor } from './simulators.ts'
import { wireChatbot } from './modules/chatbot/wiring.ts'
import { deliverTask } from './modules/messages/send.ts'
import { whatsappRoutes } from './modules/whatsapp/routes.ts'
import { simulatorRoutes } from './channels/simulator/control/routes.ts'
import { authRoutes } from './modules/auth/routes.ts'
import { planRoutes } from './modules/plans/routes.ts'
import { companyRoutes } from './modules/companies/routes.ts'
import { passwordResetRoutes } from './modules/password-reset/routes.ts'
import { versionRoutes } from './modules/version/routes.ts'
import { userRoutes } from './modules/users/routes.ts'
import { settingRoutes } from './modules/settings/routes.ts'
import { helpRoutes } from './modules/helps/routes.ts'
import { queueRoutes } from './modules/queues/routes.ts'
import { queueOptionRoutes } from './modules/queue-options/routes.ts'
import { tagRoutes } from './modules/tags/routes.ts'
import { quickMessageRoutes } from './modules/quick-messages/routes.ts'
import { scheduleRoutes } from './modules/schedules/routes.ts'
import { ticketNoteRoutes } from './modules/ticket-notes/routes.ts'
import { ticketMessenger } from './modules/messages/automatic-send.ts'
import { messageRoutes } from './modules/messages/routes.ts'
import { externalApiRoutes } from './modules/external-api/routes.ts'
import { contactRoutes } from './modules/contacts/routes.ts'
import { ticketRoutes } from './modules/tickets/routes.ts'
import { ticketTagRoutes } from './modules/tickets/tag-routes.ts'
import { ticketVisibilityOf } from './modules/tickets/viewer.ts'
import { webPages } from './web/pages.ts'
import { promptRoutes } from './modules/prompts/routes.ts'
import { queueIntegrationRoutes } from './modules/queue-integrations/routes.ts'

const swaggerAssets = join(import.meta.dir, '..', 'node_modules', 'swagger-ui-dist')

export const apiRoutes = (deps: Deps, connections: ConnectionManager, simulator: Simulator | undefined) =>
  new Elysia({ prefix: '/api' })
    .use(whatsappRoutes(deps, connections))
    .use(simulatorRoutes(deps, simulator))
    .use(versionRoutes())
    .use(authRoutes(deps))
    .use(planRoutes(deps))
    .use(companyRoutes(deps))
    .use(userRoutes(deps))
    .use(settingRoutes(deps))
    .use(helpRoutes(deps))
    .use(queueRoutes(deps))
    .use(queueOptionRoutes(deps))
    .use(tagRoutes(deps))
    .use(quickMessageRoutes(deps))
    .use(scheduleRoutes(deps))
    .use(ticketNoteRoutes(deps))
    .use(messageRoutes(deps, connections))
    .use(externalApiRoutes(deps, connections))
    .use(contactRoutes(deps, connections))
    .use(ticketRoutes(deps, ticketMessenger(deps, connections)))
    .use(ticketTagRoutes(deps))
    .use(passwordResetRoutes(deps))
    .use(promptRoutes(deps))
    .use(queueIntegrationRoutes(deps))

/**
 * options.sessions: this instance among others (Redis leases when REDIS_URL is set; tests pass their own).
 * options.simulator: the simulated WhatsApp network when WHATSAPP_SIMULATOR is on; by default the
 * process's one for this database (src/simulators.ts), which apps on one database share.
 */
export function createApp(deps: Deps, options: { sessions?: SessionCluster; simulator?: Simulator } = {}) {
  const hub = new RealtimeHub(ticketVisibilityOf(deps.db))
  const unwire = wireRealtime(deps, hub)
  const unlisten = listenDomainEvents(deps)
  // What connections report goes through the inbound pipeline; the pipeline reaches the providers
  // back through the manager (to reject calls, mark read), hence the closure.
  const pipeline = createInboundPipeline(deps, { registry: { providerFor: (ref) => connections.providerFor(ref) } })
  const cluster = options.sessions ?? sessionClusterFor(deps.config, deps.logger)
  const simulator = deps.config.whatsappSimulator ? (options.simulator ?? simulatorFor(deps.db, { logger: deps.logger, now: deps.now })) : undefined
  // Scaled out, a send runs on the instance owning the session (messages/send.ts).
  const connections = createConnectionManager(deps, { sink: pipeline, factories: providerFactories(deps, simulator), cluster, ownerTasks: [deliverTask] })
  wireChatbot(deps, pipeline, connections)
  const requestMaxBytes = deps.config.media.maxBytes + MULTIPART_OVERHEAD_BYTES
  // Bun refuses a larger body itself, before buffering it (its default is 128 MiB).
  return new Elysia({ serve: { maxRequestBodySize: requestMaxBytes } })
    .decorate('realtimeHub', hub)
    .decorate('connections', connections)
    .onStop(() => {
      unwire()
      unlisten()
    })
    .use(httpErrors(deps.logger))
    .use(bodyLimits({ jsonMaxBytes: deps.config.jsonMaxBytes, requestMaxBytes, largeJsonPaths: ['/api/contacts/upload'] }))
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
    .use(apiRoutes(deps, connections, simulator))
    .use(realtimeRoutes(deps, hub))
    .use(publicMediaRoutes(deps, deps.storage))
    .use(webPages(deps))
}

export type App = ReturnType<typeof createApp>
