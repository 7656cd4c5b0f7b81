import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import {
  CreateIntegrationBody,
  DeletedIntegrationResponse,
  IdParams,
  IntegrationPage,
  IntegrationSearchQuery,
  QueueIntegration,
  TestSessionBody,
  TestSessionResponse,
  UpdateIntegrationBody,
} from './model.ts'
import { testIntegrationSession } from './test-session.ts'
import { createIntegration, deleteIntegration, listIntegrationPage, readIntegration, updateIntegration } from './service.ts'

/** §6: admins, of a company whose plan has useIntegrations (jsonContent is a credential: no one else reads it). */
const auth = { profile: 'admin', feature: 'useIntegrations' } as const

export const queueIntegrationRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/queueIntegration', tags: ['Queue integrations'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listIntegrationPage(deps, caller.companyId, query), {
      auth,
      query: IntegrationSearchQuery,
      response: IntegrationPage,
      detail: { summary: "The company's integrations, 20 per page by name; searchParam matches the name without case" },
    })
    .post('/testSession', ({ caller, body }) => testIntegrationSession(deps, caller.companyId, body), {
      auth,
      body: TestSessionBody,
      response: TestSessionResponse,
      detail: {
        summary:
          'Talk to an integration once (the form’s fields, or a saved one by integrationId with the sent fields over it) and return its answer to a test phrase: Dialogflow detectIntent with the service-account key, Typebot startChat, webhook/n8n a `session.test` event. ERR_INTEGRATION_INVALID_CREDENTIALS, ERR_INTEGRATION_AUTH_FAILED, ERR_INTEGRATION_REQUEST_FAILED on failure',
      },
    })
    .get('/:id', ({ caller, params }) => readIntegration(deps, { companyId: caller.companyId, integrationId: params.id }), {
      auth,
      params: IdParams,
      response: QueueIntegration,
      detail: { summary: 'One integration (jsonContent masked: "****" and the service account\'s client_email)' },
    })
    .post('', ({ caller, body }) => createIntegration(deps, caller.companyId, body), {
      auth,
      body: CreateIntegrationBody,
      response: QueueIntegration,
      detail: {
        summary:
          'Create an integration: dialogflow needs projectName, jsonContent (the service-account key, JSON) and language; n8n, webhook and typebot need urlN8N (http or https; the name becomes projectName); typebot also typebotSlug',
      },
    })
    .put('/:id', ({ caller, params, body }) => updateIntegration(deps, caller.companyId, params.id, body), {
      auth,
      params: IdParams,
      body: UpdateIntegrationBody,
      response: QueueIntegration,
      detail: { summary: 'Edit an integration (only the fields sent change; the result must satisfy its type). jsonContent left out, or sent back masked as read, keeps the stored key' },
    })
    .delete('/:id', ({ caller, params }) => deleteIntegration(deps, caller.companyId, params.id), {
      auth,
      params: IdParams,
      response: DeletedIntegrationResponse,
      detail: { summary: 'Remove an integration; queues, connections and tickets using it are left without one' },
    })
