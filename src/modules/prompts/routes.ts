import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { CreatePromptBody, IdParams, Prompt, PromptDeleted, PromptList, UpdatePromptBody } from './model.ts'
import { createPrompt, deletePrompt, listPrompts, readPrompt, updatePrompt } from './service.ts'

/** The prompts page is in the admin section (§2) and needs the plan's useOpenAi (§6): 403 ERR_NO_PERMISSION otherwise. */
const auth = { profile: 'admin', feature: 'useOpenAi' } as const

const keyNote = 'The OpenAI apiKey is masked (****1234: its last 4 characters, only for keys of 12 or more) in every answer. On PUT, leaving apiKey out, or sending the mask back, keeps the stored key.'

export const promptRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/prompt', tags: ['Prompts'] })
    .use(tenant(deps))
    .get('', ({ caller }) => listPrompts(deps, caller.companyId), {
      auth,
      response: PromptList,
      detail: { summary: "The company's AI prompts by name, each with its queue's name (admins, plan with useOpenAi)", description: keyNote },
    })
    .get('/:id', ({ caller, params }) => readPrompt(deps, { companyId: caller.companyId, promptId: params.id }), {
      auth,
      params: IdParams,
      response: Prompt,
      detail: { summary: 'One prompt (what the edit form loads; the apiKey masked)', description: keyNote },
    })
    .post('', ({ caller, body }) => createPrompt(deps, caller.companyId, body), {
      auth,
      body: CreatePromptBody,
      response: Prompt,
      detail: {
        summary: 'Create a prompt: name (5-100), prompt (50+), apiKey and queueId required; model, maxTokens, temperature and maxMessages default to gpt-3.5-turbo-1106, 100, 1 and 10',
        description: `${keyNote} A queueId of another company is a 422 on queueId; a name the company already uses (any case) is 409 ERR_PROMPT_NAME_ALREADY_EXISTS.`,
      },
    })
    .put('/:id', ({ caller, params, body }) => updatePrompt(deps, caller.companyId, params.id, body), {
      auth,
      params: IdParams,
      body: UpdatePromptBody,
      response: Prompt,
      detail: { summary: 'Edit a prompt (only the fields sent change)', description: keyNote },
    })
    .delete('/:id', ({ caller, params }) => deletePrompt(deps, caller.companyId, params.id), {
      auth,
      params: IdParams,
      response: PromptDeleted,
      detail: { summary: 'Remove a prompt; the queues and connections using it are left without one (their updates go out on the queue and whatsapp channels)' },
    })
