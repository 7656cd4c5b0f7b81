// POST /api/messages/send: other systems send WhatsApp messages with a connection's token.
import { Elysia, t } from 'elysia'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { bearerFrom } from '../../core/tenant.ts'
import { ExternalSendBody, ExternalSendResult } from './model.ts'
import { authenticateConnectionToken, sendExternalMessage } from './service.ts'

const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })

const description = `Authenticate with the **connection's token** (Connections > edit > token), not a user's login:
\`Authorization: Bearer <token>\`. The message goes out through that connection. The plan must include the external API (useExternalApi).

The number (country and area code, digits) is checked on WhatsApp first. The contact and its ticket on this
connection are found or created; the message is stored in the ticket like an agent's.

Text:

\`\`\`
curl -X POST https://zapdesk.example.com/api/messages/send \\
  -H 'Authorization: Bearer 3f9c2a...' \\
  -H 'Content-Type: application/json' \\
  -d '{"number": "5511999990000", "body": "Your order has shipped."}'
\`\`\`

A file (body is its caption), closing the ticket afterwards:

\`\`\`
curl -X POST https://zapdesk.example.com/api/messages/send \\
  -H 'Authorization: Bearer 3f9c2a...' \\
  -F number=5511999990000 -F body='Your invoice' -F medias=@invoice.pdf -F closeTicket=true
\`\`\`

Errors: 401 ERR_UNAUTHORIZED (no or unknown token), 403 ERR_NO_PERMISSION (plan without the external API),
403 ERR_SUBSCRIPTION_EXPIRED (the company is past its due date and grace period),
422 ERR_VALIDATION (number or body missing), 400 ERR_WAPP_NOT_INITIALIZED (connection not connected),
400 ERR_WAPP_INVALID_CONTACT (not on WhatsApp), 400 ERR_WAPP_CHECK_CONTACT (the check failed),
502 ERR_SENDING_WAPP_MSG (WhatsApp refused it; the message is stored with its error).`

export const externalApiRoutes = (deps: Deps, registry: ConnectionRegistry) =>
  new Elysia({ prefix: '/messages', tags: ['External API'] })
    // Before body validation: a caller without a valid token learns nothing about the payload.
    .derive(async ({ headers }) => ({ connection: await authenticateConnectionToken(deps, bearerFrom(headers.authorization)) }))
    .post('/send', ({ connection, body }) => sendExternalMessage(deps, registry, connection, body), {
      body: ExternalSendBody,
      response: { 200: ExternalSendResult, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody, 502: ErrorBody },
      detail: {
        summary: "Send a WhatsApp message from another system, with a connection's token",
        description,
        security: [{ bearer: [] }],
      },
    })
