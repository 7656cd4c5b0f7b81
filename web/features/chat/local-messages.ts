// Messages this tab learned from an answer (a send, a delete) reach the list at once, without
// waiting for the realtime frame that follows (which then just replaces them, same id).
import type { ChatMessage } from './chat-message.ts'

type Listener = (message: ChatMessage) => void
const listeners = new Set<Listener>()

export function publishLocalMessages(messages: readonly ChatMessage[]): void {
  for (const message of messages) for (const listener of listeners) listener(message)
}

export function onLocalMessage(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
