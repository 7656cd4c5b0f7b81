// The Typebot kind: its chat API (v1) on the server at urlN8N, the bot by its public id (typebotSlug).
// startChat opens a session and returns the first bubbles; continueChat sends the customer's answer.
// The bubbles are turned into WhatsApp messages here: texts (rich text flattened to WhatsApp's
// *bold* and _italic_), images, videos and audio by URL, and a choice input as a numbered list that
// the customer answers with the number or the text.
import type { Deps } from '../deps.ts'
import { OutboundError, redactUrl } from '../../core/http/guarded-fetch.ts'
import { IntegrationFailed, type BotItem } from './bot-reply.ts'

const typebotTimeoutMs = 15_000
const typebotMaxBytes = 512 * 1024

export type TypebotTurn = {
  sessionId: string
  items: BotItem[]
  /** The choices now asked for (empty: free text, or none). */
  choices: string[]
  /** No input awaited: the flow is over. */
  ended: boolean
}

type RichNode = { text?: unknown; bold?: unknown; italic?: unknown; children?: unknown; type?: unknown; url?: unknown }

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Slate rich text (Typebot's default bubble format) as WhatsApp text: one line per block. */
export function richTextToWhatsApp(nodes: unknown): string {
  if (!Array.isArray(nodes)) return ''
  const inline = (node: RichNode): string => {
    if (typeof node.text === 'string') {
      let text = node.text
      if (text.trim() !== '' && node.bold === true) text = `*${text}*`
      if (text.trim() !== '' && node.italic === true) text = `_${text}_`
      return text
    }
    const children = Array.isArray(node.children) ? (node.children as RichNode[]).map(inline).join('') : ''
    return node.type === 'a' && typeof node.url === 'string' && !children.includes(node.url) ? `${children} (${node.url})` : children
  }
  return (nodes as RichNode[])
    .map((block) => (isRecord(block) ? inline(block) : ''))
    .join('\n')
    .trim()
}

function bubbleItem(bubble: unknown): BotItem | undefined {
  if (!isRecord(bubble) || !isRecord(bubble.content)) return undefined
  const content = bubble.content
  switch (bubble.type) {
    case 'text': {
      const text = typeof content.markdown === 'string' ? content.markdown : richTextToWhatsApp(content.richText)
      return text.trim() === '' ? undefined : { kind: 'text', text }
    }
    case 'image':
    case 'video':
    case 'audio': {
      if (typeof content.url !== 'string' || content.url === '') return undefined
      // A video hosted on YouTube or Vimeo is a link, not a file WhatsApp can carry.
      if (bubble.type === 'video' && typeof content.type === 'string' && content.type !== 'url') return { kind: 'text', text: content.url }
      return { kind: 'media', mediaType: bubble.type, url: content.url, caption: '' }
    }
    case 'embed':
      return typeof content.url === 'string' && content.url !== '' ? { kind: 'text', text: content.url } : undefined
    default:
      return undefined
  }
}

function choicesOf(input: unknown): string[] {
  if (!isRecord(input) || input.type !== 'choice input' || !Array.isArray(input.items)) return []
  return input.items.map((item) => (isRecord(item) && typeof item.content === 'string' ? item.content : '')).filter((content) => content !== '')
}

/** The choices as one WhatsApp message: "1 - Sales" per line. */
export function choiceList(choices: string[]): string {
  return choices.map((choice, index) => `${index + 1} - ${choice}`).join('\n')
}

/** The customer's answer to a choice list: its number or its text (any case); undefined if neither. */
export function pickChoice(choices: string[], answer: string): string | undefined {
  const trimmed = answer.trim()
  if (/^\d+$/.test(trimmed)) return choices[Number(trimmed) - 1]
  return choices.find((choice) => choice.toLowerCase() === trimmed.toLowerCase())
}

/** One answer of the chat API as a turn: the bubbles, then the choice list when one is asked. */
export function turnOf(answer: unknown, sessionId: string): TypebotTurn {
  if (!isRecord(answer)) throw new IntegrationFailed('the Typebot answer is not a JSON object')
  const messages = Array.isArray(answer.messages) ? answer.messages : []
  const items = messages.map(bubbleItem).filter((item): item is BotItem => item !== undefined)
  const choices = choicesOf(answer.input)
  if (choices.length > 0) items.push({ kind: 'text', text: choiceList(choices) })
  return { sessionId, items, choices, ended: !isRecord(answer.input) }
}

async function post(deps: Pick<Deps, 'outbound'>, url: string, json: unknown): Promise<unknown> {
  let response
  try {
    response = await deps.outbound.request({ url, method: 'POST', json, timeoutMs: typebotTimeoutMs, maxResponseBytes: typebotMaxBytes, maxRedirects: 0 })
  } catch (error) {
    if (error instanceof OutboundError) throw new IntegrationFailed(`${redactUrl(url)}: ${error.kind}: ${error.message}`)
    throw error
  }
  if (!response.ok) throw new IntegrationFailed(`${redactUrl(url)} answered ${response.status}`, response.status)
  try {
    return response.json()
  } catch {
    throw new IntegrationFailed('the Typebot answer is not JSON')
  }
}

function apiBase(serverUrl: string): string {
  return serverUrl.replace(/\/+$/, '')
}

export type TypebotTarget = { serverUrl: string; publicId: string }

/** Opens a session; the contact's number and name are prefilled (variables `number` and `pushName`). */
export async function startTypebotChat(deps: Pick<Deps, 'outbound'>, target: TypebotTarget, contact: { number: string; name: string }): Promise<TypebotTurn> {
  const url = `${apiBase(target.serverUrl)}/api/v1/typebots/${encodeURIComponent(target.publicId)}/startChat`
  const answer = await post(deps, url, { isStreamEnabled: false, textBubbleContentFormat: 'markdown', prefilledVariables: { number: contact.number, pushName: contact.name } })
  const sessionId = isRecord(answer) && typeof answer.sessionId === 'string' ? answer.sessionId : ''
  if (sessionId === '') throw new IntegrationFailed('the Typebot answer has no sessionId')
  return turnOf(answer, sessionId)
}

export async function continueTypebotChat(deps: Pick<Deps, 'outbound'>, target: TypebotTarget, sessionId: string, text: string): Promise<TypebotTurn> {
  const url = `${apiBase(target.serverUrl)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`
  const answer = await post(deps, url, { message: { type: 'text', text }, textBubbleContentFormat: 'markdown' })
  return turnOf(answer, sessionId)
}
