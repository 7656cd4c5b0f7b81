// /simulator/{whatsappId}/...: the simulator's control surface (demo, tests, benchmarks). Mounted only
// when WHATSAPP_SIMULATOR is on; otherwise these paths do not exist (404).
import { Elysia } from 'elysia'
import type { Simulator } from '../simulator.ts'
import type { Deps } from '../../../modules/deps.ts'
import { tenant } from '../../../core/tenant.ts'
import { AckBody, InboundBody, InboundResponse, OkResponse, OutboxQuery, OutboxResponse, SimulatorParams } from './model.ts'
import { readOutbox, simulateAck, simulateInbound, type SimulatorSessions } from './service.ts'

/**
 * `simulator`: given by the composition when WHATSAPP_SIMULATOR is on, undefined otherwise.
 * `sessions`: scaled out, a control runs on the instance owning the connection's session.
 */
export const simulatorRoutes = (deps: Deps, simulator: Simulator | undefined, sessions?: SimulatorSessions) =>
  // Switched off, nothing is mounted. The type stays the routes' so that the typed clients (the CLI,
  // the tests) know these paths; a server without the simulator answers them 404.
  simulator ? controlRoutes(deps, simulator, sessions) : (new Elysia() as unknown as ReturnType<typeof controlRoutes>)

const controlRoutes = (deps: Deps, simulator: Simulator, sessions: SimulatorSessions | undefined) => {
  return new Elysia({ prefix: '/simulator', tags: ['Simulator'] })
    .use(tenant(deps))
    .post(
      '/:whatsappId/inbound',
      ({ caller, params, body }) => simulateInbound(deps, simulator, { companyId: caller.companyId, whatsappId: params.whatsappId }, body, sessions),
      {
        auth: 'admin',
        params: SimulatorParams,
        body: InboundBody,
        response: InboundResponse,
        detail: { summary: 'A customer writes in through a simulated connection (JSON, or multipart with a media file); answers the message id (admins)' },
      },
    )
    .post(
      '/:whatsappId/ack',
      async ({ caller, params, body }) => {
        await simulateAck(deps, simulator, { companyId: caller.companyId, whatsappId: params.whatsappId }, body, sessions)
        return { ok: true as const }
      },
      {
        auth: 'admin',
        params: SimulatorParams,
        body: AckBody,
        response: OkResponse,
        detail: { summary: 'WhatsApp reports a receipt for a message (2 server, 3 delivered, 4 read, 5 played) (admins)' },
      },
    )
    .get('/:whatsappId/outbox', ({ caller, params, query }) => readOutbox(deps, simulator, { companyId: caller.companyId, whatsappId: params.whatsappId }, query, sessions), {
      auth: 'admin',
      params: SimulatorParams,
      query: OutboxQuery,
      response: OutboxResponse,
      detail: { summary: 'What the platform sent through a simulated connection, oldest first: ids, bodies, media, quoted ids, acks (admins)' },
    })
}
