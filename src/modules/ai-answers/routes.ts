import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { tenant } from '../../core/tenant.ts'
import { IdParams } from '../../core/schemas.ts'
import { AiUsageQuery, AiUsageReply, TryPromptBody, TryPromptReply } from './model.ts'
import { aiUsage, tryPrompt } from './service.ts'

/** As the prompts page: admins of a plan with useOpenAi. */
const auth = { profile: 'admin', feature: 'useOpenAi' } as const

const DAY_MS = 24 * 60 * 60 * 1000

export const aiAnswerRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/prompt', tags: ['Prompts'] })
    .use(tenant(deps))
    .get('/usage', ({ caller, query }) => aiUsage(deps, { companyId: caller.companyId, since: query.days ? new Date(deps.now().getTime() - query.days * DAY_MS) : undefined }), {
      auth,
      query: AiUsageQuery,
      response: AiUsageReply,
      detail: { summary: "The company's AI token usage (answers to customers and tries), in all or over the last `days`, with how many answers, hand-offs and failures" },
    })
    .post('/:id/try', ({ caller, params, body }) => tryPrompt(deps, { companyId: caller.companyId, promptId: params.id }, body.messages), {
      auth,
      params: IdParams,
      body: TryPromptBody,
      response: TryPromptReply,
      detail: {
        summary: 'Talk to a prompt as a customer would, without WhatsApp: the conversation so far in, the model’s answer (or its hand-off reason) out',
        description: 'The turn is counted in the usage. 404 ERR_NO_PROMPT_FOUND for another company’s prompt; 502 ERR_AI_REQUEST_FAILED {reason} when the model fails.',
      },
    })
