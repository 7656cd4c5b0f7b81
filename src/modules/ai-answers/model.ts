import { t } from 'elysia'

export const TryPromptBody = t.Object({
  /** The conversation so far, oldest first: the customer's turns (fromMe false) and the prompt's answers. */
  messages: t.Array(
    t.Object({
      fromMe: t.Boolean(),
      body: t.String({ minLength: 1, maxLength: 4000, error: 'each message needs a body of 1 to 4000 characters' }),
    }),
    { minItems: 1, maxItems: 100, error: 'messages: 1 to 100 turns' },
  ),
})

export const TryPromptReply = t.Object({
  /** What the customer would read (may be empty when the model only handed off). */
  answer: t.String(),
  /** Set when the model asked for a human: the ticket would move to the prompt's queue with it. */
  handoffReason: t.Nullable(t.String()),
  usage: t.Object({ promptTokens: t.Integer(), completionTokens: t.Integer() }),
})

export const AiUsageQuery = t.Object({ days: t.Optional(t.Numeric({ minimum: 1, maximum: 3650, error: 'days must be a whole number from 1 to 3650' })) })

export const AiUsageReply = t.Object({
  promptTokens: t.Integer(),
  completionTokens: t.Integer(),
  totalTokens: t.Integer(),
  answered: t.Integer(),
  handoffs: t.Integer(),
  failures: t.Integer(),
})
