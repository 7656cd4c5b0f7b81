import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import {
  Chat,
  ChatMessage,
  ChatMessagePage,
  ChatMessagesQuery,
  ChatPage,
  ChatRefParams,
  ChatSearchQuery,
  CreateChatBody,
  DeletedResponse,
  IdParams,
  MarkReadBody,
  SendChatMessageBody,
  UpdateChatBody,
} from './model.ts'
import { createChat, deleteChat, listChatMessages, listChats, markChatRead, sendChatMessage, showChat, updateChat } from './service.ts'

// Every route needs the plan's internal chat (useInternalChat).
const auth = { feature: 'useInternalChat' } as const

export const chatRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/chats', tags: ['Internal chat'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listChats(deps, caller, query), {
      auth,
      query: ChatSearchQuery,
      response: ChatPage,
      detail: { summary: 'The chats you are a member of, 20 per page, most recently active first; searchParam matches the title' },
    })
    .get('/:id', ({ caller, params }) => showChat(deps, caller, params.id), {
      auth,
      params: ChatRefParams,
      response: Chat,
      detail: { summary: 'One chat you are a member of, by id or uuid' },
    })
    .post('', ({ caller, body }) => createChat(deps, caller, body), {
      auth,
      body: CreateChatBody,
      response: Chat,
      detail: { summary: 'Create a chat with a title and users (you are its owner and a member)' },
    })
    .put('/:id', ({ caller, params, body }) => updateChat(deps, caller, params.id, body), {
      auth,
      params: IdParams,
      body: UpdateChatBody,
      response: Chat,
      detail: { summary: 'Rename a chat or replace its users (owner only)' },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteChat(deps, caller, params.id)
        return { ok: true as const }
      },
      { auth, params: IdParams, response: DeletedResponse, detail: { summary: 'Delete a chat and its messages (owner only)' } },
    )
    .get('/:id/messages', ({ caller, params, query }) => listChatMessages(deps, caller, params.id, query.pageNumber), {
      auth,
      params: IdParams,
      query: ChatMessagesQuery,
      response: ChatMessagePage,
      detail: { summary: "A chat's messages, 20 per page from the newest; each page in reading order (members only)" },
    })
    .post('/:id/messages', ({ caller, params, body }) => sendChatMessage(deps, caller, params.id, body.message), {
      auth,
      params: IdParams,
      body: SendChatMessageBody,
      response: ChatMessage,
      detail: { summary: 'Write in a chat (members only); the other members get one more unread' },
    })
    .post('/:id/read', ({ caller, params, body }) => markChatRead(deps, caller, params.id, body.userId), {
      auth,
      params: IdParams,
      body: MarkReadBody,
      response: Chat,
      detail: { summary: 'Mark a chat read for yourself (userId must be yours)' },
    })
