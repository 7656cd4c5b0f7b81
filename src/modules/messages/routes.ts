// GET/POST /messages/{ticketId}, DELETE /messages/{id}: a ticket's conversation for agents.
// (The path parameter is named `id` in all three: see TicketIdParams.)
import { Elysia, t } from 'elysia'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { MessageIdParams, MessagePage, MessagePageQuery, MessageView, SendMessageBody, SentMessages, TicketIdParams } from './model.ts'
import { deleteTicketMessage, listTicketMessages, sendTicketMessage } from './service.ts'

const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })

export const messageRoutes = (deps: Deps, registry: ConnectionRegistry) =>
  new Elysia({ prefix: '/messages', tags: ['Messages'] })
    .use(tenant(deps))
    .get('/:id', ({ caller, params, query }) => listTicketMessages(deps, registry, caller, { ticketId: params.id, pageNumber: query.pageNumber, markRead: query.markRead }), {
      auth: true,
      params: TicketIdParams,
      query: MessagePageQuery,
      response: { 200: MessagePage, 403: ErrorBody, 404: ErrorBody },
      detail: {
        summary: "A ticket's messages, 20 per page, newest page first (each page oldest first)",
        description:
          'Page 1 (the default) is what an agent sees on opening the ticket, so asking for it marks the ticket read: unread count 0, read receipts sent to WhatsApp, ticket `updateUnread` on realtime, unless markRead=false (a look that reads nothing). Later pages do not. mediaUrl is a signed link that expires (MEDIA_URL_TTL_SECONDS).',
      },
    })
    .post('/:id', ({ caller, params, body }) => sendTicketMessage(deps, registry, caller, params.id, body), {
      auth: true,
      params: TicketIdParams,
      body: SendMessageBody,
      response: { 200: SentMessages, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody, 502: ErrorBody },
      detail: {
        summary: "Send text or files to the ticket's contact",
        description:
          'JSON `{body, quotedMsg, sign}` or multipart with `medias` (one or more files; `body` is the caption of the first). The ticket must be open unless you are an admin. If WhatsApp refuses a message it is still stored (ack 0, sendError) and shown, and the answer is 502 ERR_SENDING_WAPP_MSG with the messageIds. Without a live connection: 400 ERR_WAPP_NOT_INITIALIZED and nothing is stored.',
      },
    })
    .delete('/:id', ({ caller, params }) => deleteTicketMessage(deps, registry, caller, params.id), {
      auth: true,
      params: MessageIdParams,
      response: { 200: MessageView, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 502: ErrorBody },
      detail: { summary: 'Delete one of our messages for everyone (the customer\'s messages cannot be deleted)' },
    })
