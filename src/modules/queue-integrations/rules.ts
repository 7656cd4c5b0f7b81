// §5 "Integration": which fields each type needs, checked on the whole integration (a PUT merged with
// what is stored), every failing field reported at once. What a type does not use is stored empty
// (or at its default), so switching a Dialogflow integration to a webhook leaves no credential behind.
import { type FieldError, validationError } from '../../core/errors.ts'
import { INTEGRATION_LIMITS, TYPEBOT_DEFAULTS, type IntegrationType } from './model.ts'

export type IntegrationValues = {
  type: IntegrationType
  name: string
  projectName: string
  jsonContent: string
  language: string
  urlN8N: string
  typebotSlug: string
  typebotExpires: number
  typebotKeywordFinish: string
  typebotKeywordRestart: string
  typebotRestartMessage: string
  typebotUnknownMessage: string
  typebotDelayMessage: number
}

export const integrationLanguages = ['pt-BR', 'en', 'es'] as const

const blankTypebot = {
  typebotSlug: '',
  typebotExpires: TYPEBOT_DEFAULTS.typebotExpires,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotUnknownMessage: '',
  typebotDelayMessage: TYPEBOT_DEFAULTS.typebotDelayMessage,
}

/** An absolute http(s) address with a host: what the bot's server is reached at. */
export function isHttpUrl(value: string): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
}

/** Dialogflow's service-account key: a JSON object (an array or a bare string is no key). */
function isJsonObject(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value)
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
  } catch {
    return false
  }
}

/** A slug goes into the typebot's URL path: letters, digits, dots, dashes and underscores only. */
const slugPattern = /^[A-Za-z0-9._-]+$/

/** The values to store, or ERR_VALIDATION naming every field at fault. */
export function normalizeIntegration(input: IntegrationValues): IntegrationValues {
  const fields: FieldError[] = []
  const fail = (field: string, message: string) => fields.push({ field, message })
  const name = input.name.trim()
  if (name.length < INTEGRATION_LIMITS.name.min || name.length > INTEGRATION_LIMITS.name.max) fail('name', 'name is required, 2 to 50 characters')

  let values: IntegrationValues
  if (input.type === 'dialogflow') {
    const projectName = input.projectName.trim()
    const jsonContent = input.jsonContent.trim()
    if (projectName === '') fail('projectName', 'projectName is required for dialogflow')
    if (jsonContent === '') fail('jsonContent', 'jsonContent is required for dialogflow (the service-account key)')
    else if (!isJsonObject(jsonContent)) fail('jsonContent', 'jsonContent must be a JSON object (the service-account key)')
    if (!(integrationLanguages as readonly string[]).includes(input.language)) fail('language', 'language is required for dialogflow: pt-BR, en or es')
    values = { ...input, ...blankTypebot, name, projectName, jsonContent, urlN8N: '' }
  } else {
    const urlN8N = input.urlN8N.trim()
    if (urlN8N === '') fail('urlN8N', `urlN8N is required for ${input.type}`)
    else if (!isHttpUrl(urlN8N)) fail('urlN8N', 'urlN8N must be an http or https address')
    // §5: for n8n, webhook and typebot the name is the project name.
    const common = { ...input, name, projectName: name, jsonContent: '', language: '', urlN8N }
    if (input.type === 'typebot') {
      const typebotSlug = input.typebotSlug.trim()
      if (typebotSlug === '') fail('typebotSlug', 'typebotSlug is required for typebot')
      else if (!slugPattern.test(typebotSlug)) fail('typebotSlug', 'typebotSlug may hold only letters, digits, dots, dashes and underscores')
      values = {
        ...common,
        typebotSlug,
        typebotKeywordFinish: input.typebotKeywordFinish.trim(),
        typebotKeywordRestart: input.typebotKeywordRestart.trim(),
        typebotRestartMessage: input.typebotRestartMessage.trim(),
        typebotUnknownMessage: input.typebotUnknownMessage.trim(),
      }
    } else {
      values = { ...common, ...blankTypebot }
    }
  }
  if (fields.length > 0) throw validationError(fields)
  return values
}
