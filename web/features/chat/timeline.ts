// What the message list draws, in order: a day separator before each new calendar day (local time),
// a "conversation started" marker where a conversation begins, then the messages themselves.
import { timeOf, type ChatMessage } from './chat-message.ts'

export type TimelineItem =
  | { kind: 'day'; key: string; day: Date }
  | { kind: 'conversation'; key: string; ticketId: number; startedAt: Date }
  | { kind: 'message'; key: string; message: ChatMessage }

/** The local calendar day of a moment, as yyyy-MM-dd (the key two moments of one day share). */
export function dayKey(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/**
 * The server pages one ticket's messages, so a conversation begins (a) at the ticket's first message,
 * known to be the first once no older page remains, and (b) wherever the ticket id changes between
 * neighbours, should a list ever hold several tickets of a contact.
 */
export function buildTimeline(messages: readonly ChatMessage[], options: { hasOlder: boolean }): TimelineItem[] {
  const items: TimelineItem[] = []
  let previous: ChatMessage | undefined
  for (const message of messages) {
    const at = new Date(timeOf(message.createdAt))
    const day = dayKey(at)
    if (!previous || dayKey(new Date(timeOf(previous.createdAt))) !== day) items.push({ kind: 'day', key: `day-${day}-${message.id}`, day: at })
    const startsConversation = previous ? previous.ticketId !== message.ticketId : !options.hasOlder
    if (startsConversation) items.push({ kind: 'conversation', key: `conversation-${message.ticketId}-${message.id}`, ticketId: message.ticketId, startedAt: at })
    items.push({ kind: 'message', key: `message-${message.id}`, message })
    previous = message
  }
  return items
}
