// The integration dialog's values, the §5 checks before sending (name 2 to 50; type; URL for n8n,
// webhook and typebot; slug for typebot; project, key and language for Dialogflow) with the server's
// own limits (src/modules/queue-integrations/model.ts), and the request body of each type.
import type { CreateIntegrationBody, IntegrationType } from '../../../src/modules/queue-integrations/model.ts'
import type { IntegrationRow } from './integration-row.ts'

export const integrationTypes = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const satisfies readonly IntegrationType[]
export const integrationLanguages = ['pt-BR', 'en', 'es'] as const
export type IntegrationLanguage = (typeof integrationLanguages)[number]

/** The server's bounds, repeated: web code may import only types from src/. */
export const integrationLimits = {
  projectName: 100,
  jsonContent: 20_000,
  url: 2048,
  typebotSlug: 200,
  keyword: 100,
  message: 1000,
  typebotExpires: { min: 1, max: 1440 },
  typebotDelayMessage: { min: 0, max: 60_000 },
} as const

export type IntegrationFormValues = {
  type: IntegrationType
  name: string
  projectName: string
  jsonContent: string
  language: IntegrationLanguage | ''
  urlN8N: string
  typebotSlug: string
  /** As typed; checked as whole numbers. */
  typebotExpires: string
  typebotDelayMessage: string
  typebotKeywordFinish: string
  typebotKeywordRestart: string
  typebotRestartMessage: string
  typebotUnknownMessage: string
  /**
   * Editing a Dialogflow integration: the mask of its stored key, as the API shows it ("**** <service
   * account>"); the key itself never reaches the browser. jsonContent left empty keeps it.
   */
  storedKey: string
}

export type IntegrationField = Exclude<keyof IntegrationFormValues, 'type' | 'storedKey'>
/** 'required': empty; 'invalid': there but not acceptable (too long, not a URL, not JSON, out of range). */
export type IntegrationProblem = 'required' | 'invalid'
export type IntegrationProblems = Partial<Record<IntegrationField, IntegrationProblem>>

/** §9: a typebot session expires after 1 minute, its messages leave 1000 ms apart. */
export function emptyIntegrationForm(): IntegrationFormValues {
  return {
    type: 'webhook',
    name: '',
    projectName: '',
    jsonContent: '',
    language: '',
    urlN8N: '',
    typebotSlug: '',
    typebotExpires: '1',
    typebotDelayMessage: '1000',
    typebotKeywordFinish: '',
    typebotKeywordRestart: '',
    typebotRestartMessage: '',
    typebotUnknownMessage: '',
    storedKey: '',
  }
}

export function integrationFormOf(row: IntegrationRow): IntegrationFormValues {
  const language = (integrationLanguages as readonly string[]).includes(row.language) ? (row.language as IntegrationLanguage) : ''
  return {
    type: row.type,
    name: row.name,
    projectName: row.type === 'dialogflow' ? row.projectName : '',
    jsonContent: '',
    storedKey: row.type === 'dialogflow' ? row.jsonContent : '',
    language,
    urlN8N: row.urlN8N,
    typebotSlug: row.typebotSlug,
    typebotExpires: String(row.typebotExpires),
    typebotDelayMessage: String(row.typebotDelayMessage),
    typebotKeywordFinish: row.typebotKeywordFinish,
    typebotKeywordRestart: row.typebotKeywordRestart,
    typebotRestartMessage: row.typebotRestartMessage,
    typebotUnknownMessage: row.typebotUnknownMessage,
  }
}

/** The fields the dialog shows for a type, in their order. */
export function fieldsOfType(type: IntegrationType): IntegrationField[] {
  if (type === 'dialogflow') return ['name', 'projectName', 'jsonContent', 'language']
  if (type === 'typebot')
    return [
      'name',
      'urlN8N',
      'typebotSlug',
      'typebotExpires',
      'typebotDelayMessage',
      'typebotKeywordFinish',
      'typebotKeywordRestart',
      'typebotRestartMessage',
      'typebotUnknownMessage',
    ]
  return ['name', 'urlN8N']
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

function isJsonObject(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value)
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
  } catch {
    return false
  }
}

function wholeNumberIn(value: string, bounds: { min: number; max: number }): number | undefined {
  const text = value.trim()
  if (!/^[0-9]+$/.test(text)) return undefined
  const number = Number(text)
  return number >= bounds.min && number <= bounds.max ? number : undefined
}

/** The §5 checks of the fields the type uses (the others are not sent). */
export function validateIntegrationForm(values: IntegrationFormValues): IntegrationProblems {
  const problems: IntegrationProblems = {}
  const name = values.name.trim()
  if (name === '') problems.name = 'required'
  else if (name.length < 2 || name.length > 50) problems.name = 'invalid'
  const limits = integrationLimits
  const tooLong = (field: IntegrationField, max: number) => {
    if (values[field].trim().length > max) problems[field] = 'invalid'
  }
  if (values.type === 'dialogflow') {
    if (values.projectName.trim() === '') problems.projectName = 'required'
    else tooLong('projectName', limits.projectName)
    const key = values.jsonContent.trim()
    if (key === '') {
      if (values.storedKey === '') problems.jsonContent = 'required'
    } else if (key.length > limits.jsonContent || !isJsonObject(key)) problems.jsonContent = 'invalid'
    if (values.language === '') problems.language = 'required'
    return problems
  }
  const url = values.urlN8N.trim()
  if (url === '') problems.urlN8N = 'required'
  else if (url.length > limits.url || !isHttpUrl(url)) problems.urlN8N = 'invalid'
  if (values.type !== 'typebot') return problems
  const slug = values.typebotSlug.trim()
  if (slug === '') problems.typebotSlug = 'required'
  else if (slug.length > limits.typebotSlug || !/^[A-Za-z0-9._-]+$/.test(slug)) problems.typebotSlug = 'invalid'
  if (values.typebotExpires.trim() === '') problems.typebotExpires = 'required'
  else if (wholeNumberIn(values.typebotExpires, limits.typebotExpires) === undefined) problems.typebotExpires = 'invalid'
  if (values.typebotDelayMessage.trim() === '') problems.typebotDelayMessage = 'required'
  else if (wholeNumberIn(values.typebotDelayMessage, limits.typebotDelayMessage) === undefined) problems.typebotDelayMessage = 'invalid'
  tooLong('typebotKeywordFinish', limits.keyword)
  tooLong('typebotKeywordRestart', limits.keyword)
  tooLong('typebotRestartMessage', limits.message)
  tooLong('typebotUnknownMessage', limits.message)
  return problems
}

/** The body of POST and PUT: the fields of the type; §5 copies the name to projectName for n8n, webhook and typebot. */
export function integrationBodyOf(values: IntegrationFormValues): CreateIntegrationBody {
  const name = values.name.trim()
  if (values.type === 'dialogflow') {
    return {
      type: 'dialogflow',
      name,
      projectName: values.projectName.trim(),
      // Empty while a key is stored: left out, the stored key stays.
      jsonContent: values.jsonContent.trim() === '' ? undefined : values.jsonContent.trim(),
      language: values.language === '' ? undefined : values.language,
    }
  }
  const common = { type: values.type, name, projectName: name, urlN8N: values.urlN8N.trim() }
  if (values.type !== 'typebot') return common
  return {
    ...common,
    typebotSlug: values.typebotSlug.trim(),
    typebotExpires: Number(values.typebotExpires.trim()),
    typebotDelayMessage: Number(values.typebotDelayMessage.trim()),
    typebotKeywordFinish: values.typebotKeywordFinish.trim(),
    typebotKeywordRestart: values.typebotKeywordRestart.trim(),
    typebotRestartMessage: values.typebotRestartMessage.trim(),
    typebotUnknownMessage: values.typebotUnknownMessage.trim(),
  }
}
