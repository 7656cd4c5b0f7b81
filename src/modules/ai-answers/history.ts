// What a prompt's model reads: the prompt's instructions, then the ticket's last messages as the
// conversation (the customer's as `user`, ours as `assistant`), and the one tool it may call to hand
// the customer to a person. Hand-off is a tool call so that no reply text is ever pattern-matched.
import type OpenAI from 'openai'

export type HistoryMessage = {
  body: string
  fromMe: boolean
  /** 'chat' for text; media without a caption shows as its kind, e.g. "[image]". */
  mediaType: string
}

export type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam

export const HANDOFF_TOOL = 'handoff_to_human'

/** Said to the model after the prompt's own text: when to call the tool, and that it must give a reason. */
export const handoffInstruction =
  `When the customer asks to talk to a person (a human, an agent, an attendant), or you cannot help, call the tool ${HANDOFF_TOOL} with a short reason instead of answering.`

export const handoffTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: {
    name: HANDOFF_TOOL,
    description: 'Hands the conversation to a human agent of the queue. Call it when the customer asks for a person or you cannot help.',
    parameters: {
      type: 'object',
      properties: { reason: { type: 'string', description: 'Why a human is needed, in one sentence.' } },
      required: ['reason'],
    },
  },
}

function textOf(message: HistoryMessage): string {
  const body = message.body.trim()
  if (body !== '') return body
  return message.mediaType === 'chat' ? '' : `[${message.mediaType}]`
}

/**
 * The messages of one completion: the instructions, then the last `maxMessages` messages with
 * something to say (oldest first). `messages` come oldest first.
 */
export function buildChatMessages(input: { instructions: string; messages: readonly HistoryMessage[]; maxMessages: number }): ChatMessage[] {
  const said = input.messages.map((message) => ({ role: message.fromMe ? ('assistant' as const) : ('user' as const), content: textOf(message) })).filter((message) => message.content !== '')
  const recent = input.maxMessages > 0 ? said.slice(-input.maxMessages) : []
  return [{ role: 'system', content: `${input.instructions.trim()}\n\n${handoffInstruction}` }, ...recent]
}
