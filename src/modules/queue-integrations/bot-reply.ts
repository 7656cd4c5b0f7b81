// What a queue integration answers to one customer message, whatever its kind: the messages to send
// (texts, media by URL), the pause between them, and what happens to the ticket next.
export type BotItem = { kind: 'text'; text: string } | { kind: 'media'; mediaType: 'image' | 'video' | 'audio' | 'document'; url: string; caption: string }

/**
 * `keep`: the integration goes on talking. `human`: it lets go, the ticket waits for an agent of its
 * queue. `transfer`: the same, in another queue (whose normal flow then greets). `close`: the ticket is
 * closed as the platform closes it.
 */
export type BotAction = { type: 'keep' } | { type: 'human'; reason: string } | { type: 'transfer'; queueId: number; reason: string } | { type: 'close' }

export type BotReply = { items: BotItem[]; action: BotAction }

/** Why the integration failed: the conversation goes back to the queue's normal flow with it. */
export class IntegrationFailed extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'IntegrationFailed'
  }
}
