// The Dialogflow (ES) kind: detectIntent on the agent of projectName, in the integration's language,
// authenticated with the service-account key (jsonContent). Text in; the fulfilment messages out;
// an intent that ends the conversation (endInteraction, or diagnosticInfo.end_conversation) hands
// the ticket back to the queue. DIALOGFLOW_API_URL moves the API (a regional endpoint, a test server).
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { OutboundError, redactUrl } from '../../core/http/guarded-fetch.ts'
import { IntegrationFailed, type BotItem } from './bot-reply.ts'
import { accessTokenFor, readServiceAccount } from './google-token.ts'

export type DialogflowAgent = { projectName: string; jsonContent: string; language: string }
export type DialogflowTurn = { items: BotItem[]; intent: string; ended: boolean }

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The texts of the fulfilment messages (platform-less ones), else fulfillmentText. */
export function dialogflowTurnOf(answer: unknown): DialogflowTurn {
  const result = isRecord(answer) && isRecord(answer.queryResult) ? answer.queryResult : undefined
  if (!result) throw new IntegrationFailed('the Dialogflow answer has no queryResult')
  const texts: string[] = []
  for (const message of Array.isArray(result.fulfillmentMessages) ? result.fulfillmentMessages : []) {
    if (!isRecord(message) || (typeof message.platform === 'string' && message.platform !== 'PLATFORM_UNSPECIFIED')) continue
    const lines = isRecord(message.text) && Array.isArray(message.text.text) ? message.text.text : []
    for (const line of lines) if (typeof line === 'string' && line.trim() !== '') texts.push(line)
  }
  if (texts.length === 0 && typeof result.fulfillmentText === 'string' && result.fulfillmentText.trim() !== '') texts.push(result.fulfillmentText)
  const intent = isRecord(result.intent) ? result.intent : {}
  const diagnostic = isRecord(result.diagnosticInfo) ? result.diagnosticInfo : {}
  const ended = intent.endInteraction === true || diagnostic.end_conversation === true
  return { items: texts.map((text) => ({ kind: 'text', text })), intent: typeof intent.displayName === 'string' ? intent.displayName : '', ended }
}

export async function detectIntent(deps: Pick<Deps, 'outbound' | 'now' | 'config'>, agent: DialogflowAgent, sessionId: string, text: string): Promise<DialogflowTurn> {
  const account = readServiceAccount(agent.jsonContent)
  const project = agent.projectName.trim() || account.projectId
  if (project === '') throw new AppError('ERR_INTEGRATION_INVALID_CREDENTIALS', { reason: 'projectName is empty' })
  const token = await accessTokenFor(deps, account)
  const base = deps.config.dialogflow.baseUrl.replace(/\/+$/, '')
  const url = `${base}/v2/projects/${encodeURIComponent(project)}/agent/sessions/${encodeURIComponent(sessionId)}:detectIntent`
  let response
  try {
    response = await deps.outbound.request({
      url,
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      json: { queryInput: { text: { text: text.slice(0, 256), languageCode: agent.language || 'pt-BR' } } },
      timeoutMs: 15_000,
      maxResponseBytes: 256 * 1024,
      maxRedirects: 0,
    })
  } catch (error) {
    if (error instanceof OutboundError) throw new IntegrationFailed(`${redactUrl(url)}: ${error.kind}: ${error.message}`)
    throw error
  }
  if (response.status === 401 || response.status === 403) throw new AppError('ERR_INTEGRATION_AUTH_FAILED', { reason: `Dialogflow refused the key (${response.status})` })
  if (response.status === 404) throw new AppError('ERR_INTEGRATION_INVALID_CREDENTIALS', { reason: `no Dialogflow agent in project ${project}` })
  if (!response.ok) throw new IntegrationFailed(`${redactUrl(url)} answered ${response.status}`, response.status)
  let answer: unknown
  try {
    answer = response.json()
  } catch {
    throw new IntegrationFailed('the Dialogflow answer is not JSON')
  }
  return dialogflowTurnOf(answer)
}
