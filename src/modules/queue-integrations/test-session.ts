// §7 POST /queueIntegration/testSession: checks an integration's credentials by talking to it once,
// as a customer would, and returns what it answered. Works on the form's unsaved fields or on a
// saved integration of the caller's company. Failures are clear codes: the key is not one
// (ERR_INTEGRATION_INVALID_CREDENTIALS), the provider refused it (ERR_INTEGRATION_AUTH_FAILED), or it
// could not be reached or answered nonsense (ERR_INTEGRATION_REQUEST_FAILED).
import { randomUUID } from 'node:crypto'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { IntegrationFailed, type BotItem } from './bot-reply.ts'
import { openIntegration } from './conversation.ts'
import { detectIntent } from './dialogflow-client.ts'
import type { IntegrationType, TestSessionBody, TestSessionResponse } from './model.ts'
import { startTypebotChat } from './typebot-client.ts'
import { callWebhook, WEBHOOK_EVENT_VERSION } from './webhook-client.ts'

const greetings: Record<string, string> = { 'pt-BR': 'Olá', en: 'Hello', es: 'Hola' }

type Fields = { type: IntegrationType; name: string; projectName: string; jsonContent: string; language: string; urlN8N: string; typebotSlug: string }

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

async function fieldsOf(deps: Deps, companyId: number, body: TestSessionBody): Promise<Fields> {
  const stored = body.integrationId === undefined ? undefined : await openIntegration(deps, { companyId, integrationId: body.integrationId })
  if (body.integrationId !== undefined && !stored) throw new AppError('ERR_NO_INTEGRATION_FOUND')
  const pick = (sent: string | undefined, kept: string | undefined) => (sent !== undefined && sent.trim() !== '' ? sent.trim() : (kept ?? ''))
  return {
    type: body.type ?? stored?.type ?? 'dialogflow',
    name: stored?.name ?? 'test',
    projectName: pick(body.projectName, stored?.projectName),
    // A masked key (as the form shows a saved one) is no key: the stored one is used.
    jsonContent: body.jsonContent !== undefined && isJson(body.jsonContent) ? body.jsonContent : (stored?.jsonContent ?? ''),
    language: pick(body.language, stored?.language),
    urlN8N: pick(body.urlN8N, stored?.urlN8N),
    typebotSlug: pick(body.typebotSlug, stored?.typebotSlug),
  }
}

function required(value: string, field: string): void {
  if (value === '') throw new AppError('ERR_INTEGRATION_INVALID_CREDENTIALS', { reason: `${field} is required` })
}

function textsOf(items: BotItem[]): string[] {
  return items.map((item) => (item.kind === 'text' ? item.text : [item.caption, item.url].filter((part) => part !== '').join('\n')))
}

async function talk(deps: Deps, companyId: number, fields: Fields, text: string): Promise<Omit<TestSessionResponse, 'type' | 'text' | 'latencyMs'>> {
  switch (fields.type) {
    case 'dialogflow': {
      required(fields.jsonContent, 'jsonContent')
      const result = await detectIntent(deps, fields, `zapdesk-test-${companyId}-${randomUUID()}`, text)
      return { messages: textsOf(result.items), intent: result.intent, endsConversation: result.ended }
    }
    case 'typebot': {
      required(fields.urlN8N, 'urlN8N')
      required(fields.typebotSlug, 'typebotSlug')
      // A Typebot speaks first: the test opens a session and returns its first bubbles.
      const result = await startTypebotChat(deps, { serverUrl: fields.urlN8N, publicId: fields.typebotSlug }, { number: '', name: 'Zapdesk test' })
      return { messages: textsOf(result.items), intent: '', endsConversation: result.ended }
    }
    default: {
      required(fields.urlN8N, 'urlN8N')
      const reply = await callWebhook(deps, fields.urlN8N, {
        version: WEBHOOK_EVENT_VERSION,
        event: 'session.test',
        integration: { id: null, name: fields.name, type: fields.type === 'n8n' ? 'n8n' : 'webhook' },
        companyId,
        ticket: null,
        contact: null,
        message: { id: 0, body: text, mediaType: 'chat', fromMe: false, createdAt: deps.now().toISOString() },
      })
      return { messages: textsOf(reply.items), intent: '', endsConversation: reply.action.type !== 'keep' }
    }
  }
}

export async function testIntegrationSession(deps: Deps, companyId: number, body: TestSessionBody): Promise<TestSessionResponse> {
  const fields = await fieldsOf(deps, companyId, body)
  const text = body.text ?? greetings[fields.language] ?? 'Olá'
  const started = performance.now()
  try {
    const answer = await talk(deps, companyId, fields, text)
    return { type: fields.type, text, ...answer, latencyMs: Math.round(performance.now() - started) }
  } catch (error) {
    if (error instanceof IntegrationFailed) throw new AppError('ERR_INTEGRATION_REQUEST_FAILED', { reason: error.message, ...(error.status ? { status: error.status } : {}) })
    throw error
  }
}
