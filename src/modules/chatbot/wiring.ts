// Plugs the chatbot into a process: the queue/chatbot flow (or the queue integration, or the AI
// prompt) after each inbound message, the rating flow on close.
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import type { AfterInboundHooks } from '../messages/after-inbound.ts'
import { startAiAnswers } from '../ai-answers/service.ts'
import { startQueueIntegrations } from '../queue-integrations/runtime.ts'
import { queueFlowAfterAi } from './ai-fallback.ts'
import { queueFlowAfterIntegration } from './integration-fallback.ts'
import { chatbotHook } from './flow.ts'
import { ratingClosingHook } from './rating.ts'

export function wireChatbot(deps: Deps, pipeline: AfterInboundHooks, registry: ConnectionRegistry): void {
  const ai = startAiAnswers(deps, registry, { fallback: queueFlowAfterAi(deps, registry) })
  const integrations = startQueueIntegrations(deps, registry, { queueFlow: queueFlowAfterIntegration(deps, registry) })
  pipeline.afterInbound.push(chatbotHook(deps, registry, ai, integrations))
  deps.ticketClosingHooks.push(ratingClosingHook())
}
