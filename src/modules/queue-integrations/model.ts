import { t } from 'elysia'
import { PageQuery } from '../../core/schemas.ts'

export { IdParams } from '../../core/schemas.ts'

/** §3 Queue integration: the four kinds of bot a queue or a connection can hand a conversation to. */
export const IntegrationType = t.Union([t.Literal('dialogflow'), t.Literal('n8n'), t.Literal('webhook'), t.Literal('typebot')], {
  error: 'type must be one of dialogflow, n8n, webhook, typebot',
})
export type IntegrationType = typeof IntegrationType.static

/** Dialogflow's agent language; empty for the other types. */
export const IntegrationLanguage = t.Union([t.Literal('pt-BR'), t.Literal('en'), t.Literal('es'), t.Literal('')], {
  error: 'language must be one of pt-BR, en, es',
})

/** §9: a typebot session expires after 1 minute without an answer and its messages leave 1000 ms apart. */
export const TYPEBOT_DEFAULTS = { typebotExpires: 1, typebotDelayMessage: 1000 } as const
export const INTEGRATION_LIMITS = {
  name: { min: 2, max: 50 },
  projectName: 100,
  /** A Dialogflow service-account key is about 2.3 KB. */
  jsonContent: 20_000,
  url: 2048,
  typebotSlug: 200,
  keyword: 100,
  message: 1000,
  /** Minutes: a day at most. */
  typebotExpires: { min: 1, max: 1440 },
  /** Milliseconds between two typebot messages: a minute at most. */
  typebotDelayMessage: { min: 0, max: 60_000 },
} as const

export const QueueIntegration = t.Object({
  id: t.Integer(),
  type: IntegrationType,
  name: t.String(),
  projectName: t.String(),
  /** Dialogflow's service-account key (a credential): only admins ever receive it. */
  jsonContent: t.String(),
  language: t.String(),
  urlN8N: t.String(),
  typebotSlug: t.String(),
  typebotExpires: t.Integer(),
  typebotKeywordFinish: t.String(),
  typebotKeywordRestart: t.String(),
  typebotRestartMessage: t.String(),
  typebotUnknownMessage: t.String(),
  typebotDelayMessage: t.Integer(),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type QueueIntegration = typeof QueueIntegration.static

export const IntegrationSearchQuery = t.Object(PageQuery)
export type IntegrationSearchQuery = typeof IntegrationSearchQuery.static

export const IntegrationPage = t.Object({ queueIntegrations: t.Array(QueueIntegration), count: t.Integer(), hasMore: t.Boolean() })

const limits = INTEGRATION_LIMITS
const text = (field: string, max: number) => t.String({ maxLength: max, error: `${field} must be at most ${max} characters` })

const integrationFields = {
  type: IntegrationType,
  name: t.String({ minLength: limits.name.min, maxLength: limits.name.max, error: 'name is required, 2 to 50 characters' }),
  projectName: text('projectName', limits.projectName),
  jsonContent: text('jsonContent', limits.jsonContent),
  language: IntegrationLanguage,
  urlN8N: text('urlN8N', limits.url),
  typebotSlug: text('typebotSlug', limits.typebotSlug),
  typebotExpires: t.Integer({
    minimum: limits.typebotExpires.min,
    maximum: limits.typebotExpires.max,
    error: `typebotExpires must be a whole number of minutes, ${limits.typebotExpires.min} to ${limits.typebotExpires.max}`,
  }),
  typebotKeywordFinish: text('typebotKeywordFinish', limits.keyword),
  typebotKeywordRestart: text('typebotKeywordRestart', limits.keyword),
  typebotRestartMessage: text('typebotRestartMessage', limits.message),
  typebotUnknownMessage: text('typebotUnknownMessage', limits.message),
  typebotDelayMessage: t.Integer({
    minimum: limits.typebotDelayMessage.min,
    maximum: limits.typebotDelayMessage.max,
    error: `typebotDelayMessage must be a whole number of milliseconds, ${limits.typebotDelayMessage.min} to ${limits.typebotDelayMessage.max}`,
  }),
}

/** type and name always; which other fields are required depends on the type (see rules.ts). */
export const CreateIntegrationBody = t.Object({
  ...t.Partial(t.Object(integrationFields)).properties,
  type: integrationFields.type,
  name: integrationFields.name,
})
export type CreateIntegrationBody = typeof CreateIntegrationBody.static

/** Only the fields sent change; the result is checked whole, as if created. */
export const UpdateIntegrationBody = t.Partial(t.Object(integrationFields))
export type UpdateIntegrationBody = typeof UpdateIntegrationBody.static

export const DeletedIntegrationResponse = t.Object({ message: t.String() })

/**
 * §7 POST /queueIntegration/testSession: the form's fields (projectName, jsonContent, language, as
 * the spec names them, and urlN8N/typebotSlug for the other kinds), or a saved integration by id with
 * the form's non-empty fields over it (a masked jsonContent keeps the stored key).
 */
export const TestSessionBody = t.Object({
  integrationId: t.Optional(t.Integer({ minimum: 1, error: 'integrationId must be an integration id' })),
  type: t.Optional(IntegrationType),
  projectName: t.Optional(text('projectName', limits.projectName)),
  jsonContent: t.Optional(text('jsonContent', limits.jsonContent)),
  language: t.Optional(IntegrationLanguage),
  urlN8N: t.Optional(text('urlN8N', limits.url)),
  typebotSlug: t.Optional(text('typebotSlug', limits.typebotSlug)),
  /** The test phrase; "Olá", "Hello" or "Hola" by language when left out. */
  text: t.Optional(t.String({ minLength: 1, maxLength: 256, error: 'text must be 1 to 256 characters' })),
})
export type TestSessionBody = typeof TestSessionBody.static

export const TestSessionResponse = t.Object({
  type: IntegrationType,
  /** The phrase sent. */
  text: t.String(),
  /** The integration's answers as the customer would get them (a media as its URL). */
  messages: t.Array(t.String()),
  /** Dialogflow's matched intent (empty for the other kinds). */
  intent: t.String(),
  /** The answer ends the conversation (the ticket would go back to its queue). */
  endsConversation: t.Boolean(),
  latencyMs: t.Integer(),
})
export type TestSessionResponse = typeof TestSessionResponse.static
