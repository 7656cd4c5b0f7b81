// A message as the chat holds it: the API's MessageView. The web client reads JSON without turning
// dates into Date objects (parseDate: false), so createdAt may be an ISO string at run time even
// though the schema says Date (realtime frames say string): `timeOf` reads either.
import type { MessageView } from '../../../src/modules/messages/model.ts'

export type ChatMessage = Omit<MessageView, 'createdAt' | 'updatedAt'> & { createdAt: Date | string; updatedAt: Date | string }

/** Milliseconds since the epoch of an API date (a Date, or the ISO string it really is on the wire). */
export function timeOf(value: Date | string): number {
  return new Date(value).getTime()
}

/** Messages in display order: oldest first, ties by id (the server's order). */
export function compareMessages(a: ChatMessage, b: ChatMessage): number {
  return timeOf(a.createdAt) - timeOf(b.createdAt) || a.id - b.id
}

/**
 * Puts an older page above what is shown. Offset paging shifts when new messages arrive meanwhile,
 * so a page may repeat messages already shown: those are kept once (the copy already shown wins,
 * as it may carry a newer ack or deletion from realtime).
 */
export function prependPage(shown: readonly ChatMessage[], olderPage: readonly ChatMessage[]): ChatMessage[] {
  const known = new Set(shown.map((message) => message.id))
  return [...olderPage.filter((message) => !known.has(message.id)), ...shown].sort(compareMessages)
}

/**
 * A created or updated message (realtime, a send's answer, a delete's answer): replaced in place or
 * added in order. The ack only grows (the server stores the greatest): a send's answer that arrives
 * after the delivered and read frames must not take the ticks back.
 */
export function upsertMessage(shown: readonly ChatMessage[], message: ChatMessage): ChatMessage[] {
  const index = shown.findIndex((item) => item.id === message.id)
  if (index >= 0) {
    const next = shown.slice()
    next[index] = { ...message, ack: Math.max(message.ack, shown[index]!.ack) }
    return next
  }
  return [...shown, message].sort(compareMessages)
}
