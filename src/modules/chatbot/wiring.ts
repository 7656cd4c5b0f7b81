// Plugs the chatbot into a process: the queue/chatbot flow after each inbound message, the rating flow on close.
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import type { AfterInboundHooks } from '../messages/after-inbound.ts'
import { chatbotHook } from './flow.ts'
import { ratingClosingHook } from './rating.ts'

export function wireChatbot(deps: Deps, pipeline: AfterInboundHooks, registry: ConnectionRegistry): void {
  pipeline.afterInbound.push(chatbotHook(deps, registry))
  deps.ticketClosingHooks.push(ratingClosingHook())
}
