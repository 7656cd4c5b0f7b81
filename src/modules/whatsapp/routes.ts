import { Elysia, t } from 'elysia'
import type { SessionControls } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import {
  CreateWhatsappBody,
  DeletedResponse,
  PairingCodeBody,
  UpdateWhatsappBody,
  Whatsapp,
  WhatsappDetail,
  WhatsappIdParams,
  WhatsappListQuery,
  WhatsappSession,
  WhatsappToken,
  WhatsappProviders,
} from './model.ts'
import { createWhatsapp, deleteWhatsapp, listWhatsapps, regenerateToken, showWhatsapp, updateWhatsapp } from './service.ts'
import { disconnectSession, renewQrCode, requestPairingCode, startSession } from './sessions.ts'

const connectionRoutes = (deps: Deps, connections: SessionControls) =>
  new Elysia({ prefix: '/whatsapp', tags: ['Connections'] })
    .use(tenant(deps))
    .get('/', ({ caller, query }) => listWhatsapps(deps, caller, query.companyId), {
      auth: true,
      query: WhatsappListQuery,
      response: t.Array(Whatsapp),
      detail: { summary: "The company's connections by name, with status and queues (never the token; the QR code to admins only)" },
    })
    .get('/providers', (): WhatsappProviders => ({ providers: deps.config.whatsappSimulator ? ['beta', 'simulator'] : ['beta'] }), {
      auth: 'admin',
      response: WhatsappProviders,
      detail: { summary: 'The providers a connection may use: beta always, simulator when WHATSAPP_SIMULATOR is on (admins)' },
    })
    .get('/:id', ({ caller, params }) => showWhatsapp(deps, caller, params.id), {
      auth: true,
      params: WhatsappIdParams,
      response: WhatsappDetail,
      detail: { summary: 'One connection; admins also get its QR code and external-API token' },
    })
    .post('/', ({ caller, body }) => createWhatsapp(deps, connections, caller, body), {
      auth: 'admin',
      body: CreateWhatsappBody,
      response: Whatsapp,
      detail: { summary: 'Add a connection (admins; counts against the plan); its session starts and the QR code follows in realtime' },
    })
    .put('/:id', ({ caller, params, body }) => updateWhatsapp(deps, connections, caller, params.id, body), {
      auth: 'admin',
      params: WhatsappIdParams,
      body: UpdateWhatsappBody,
      response: Whatsapp,
      detail: { summary: 'Edit a connection: form fields, queueIds, transferQueueId, promptId (admins)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteWhatsapp(deps, connections, caller, params.id)
        return { ok: true as const }
      },
      { auth: 'admin', params: WhatsappIdParams, response: DeletedResponse, detail: { summary: 'Disconnect and delete a connection; a deleted default hands over to the oldest other one (admins)' } },
    )
    .post('/:id/token', ({ caller, params }) => regenerateToken(deps, caller, params.id), {
      auth: 'admin',
      params: WhatsappIdParams,
      response: WhatsappToken,
      detail: { summary: 'A new token for the external message API; the previous one stops working (admins)' },
    })

const sessionRoutes = (connections: SessionControls, deps: Deps) =>
  new Elysia({ prefix: '/whatsappsession', tags: ['Connections'] })
    .use(tenant(deps))
    .post('/:id', ({ caller, params }) => startSession(connections, { companyId: caller.companyId, whatsappId: params.id }), {
      auth: 'admin',
      params: WhatsappIdParams,
      response: WhatsappSession,
      detail: { summary: 'Start the session, or retry it (keeps the pairing): OPENING, then qrcode or CONNECTED in realtime (admins)' },
    })
    .put('/:id', ({ caller, params }) => renewQrCode(connections, { companyId: caller.companyId, whatsappId: params.id }), {
      auth: 'admin',
      params: WhatsappIdParams,
      response: WhatsappSession,
      detail: { summary: 'Forget the pairing and start again: a new QR code to scan (admins)' },
    })
    .post('/:id/pairing-code', ({ caller, params, body }) => requestPairingCode(connections, { companyId: caller.companyId, whatsappId: params.id }, body.number), {
      auth: 'admin',
      params: WhatsappIdParams,
      body: PairingCodeBody,
      response: WhatsappSession,
      detail: {
        summary: 'Forget the pairing and link by phone number instead of a QR code: PAIRING with the 8-character code to type on that phone follows in realtime (admins)',
        description:
          "number: the phone's number with its country code; +, spaces, dashes and parentheses are ignored, 10 to 15 digits remain. " +
          'The answer is the session as recorded (usually OPENING); the pairing code arrives on the whatsappSession channel, and is in the answer when already known. ' +
          'On the phone: WhatsApp > Linked devices > Link a device > Link with phone number instead. If WhatsApp refuses the code, a QR code is shown instead.',
      },
    })
    .delete('/:id', ({ caller, params }) => disconnectSession(connections, { companyId: caller.companyId, whatsappId: params.id }), {
      auth: 'admin',
      params: WhatsappIdParams,
      response: WhatsappSession,
      detail: { summary: 'Disconnect: log the device out of WhatsApp; status DISCONNECTED (admins)' },
    })

/** /whatsapp (the connections) and /whatsappsession (their sessions), over one connection manager. */
export const whatsappRoutes = (deps: Deps, connections: SessionControls) =>
  new Elysia().use(connectionRoutes(deps, connections)).use(sessionRoutes(connections, deps))
