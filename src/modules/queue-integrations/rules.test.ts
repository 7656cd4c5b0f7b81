import { expect, test } from 'bun:test'
import { AppError } from '../../core/errors.ts'
import { isHttpUrl, normalizeIntegration, type IntegrationValues } from './rules.ts'

const base: IntegrationValues = {
  type: 'webhook',
  name: 'Bot',
  projectName: '',
  jsonContent: '',
  language: '',
  urlN8N: '',
  typebotSlug: '',
  typebotExpires: 1,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotUnknownMessage: '',
  typebotDelayMessage: 1000,
}

function failingFields(values: Partial<IntegrationValues>): string[] {
  try {
    normalizeIntegration({ ...base, ...values })
  } catch (error) {
    if (error instanceof AppError && error.code === 'ERR_VALIDATION') return (error.details?.fields as { field: string }[]).map((field) => field.field)
    throw error
  }
  return []
}

test('http and https addresses with a host are URLs; anything else is not', () => {
  expect(isHttpUrl('https://bots.example.com/hook')).toBe(true)
  expect(isHttpUrl('http://10.0.0.5:5678/webhook/abc')).toBe(true)
  expect(isHttpUrl('ftp://example.com')).toBe(false)
  expect(isHttpUrl('javascript:alert(1)')).toBe(false)
  expect(isHttpUrl('example.com/hook')).toBe(false)
  expect(isHttpUrl('')).toBe(false)
})

test('every missing field of a type is reported at once', () => {
  expect(failingFields({ type: 'dialogflow', name: 'x' }).sort()).toEqual(['jsonContent', 'language', 'name', 'projectName'])
  expect(failingFields({ type: 'typebot' }).sort()).toEqual(['typebotSlug', 'urlN8N'])
  expect(failingFields({ type: 'n8n' })).toEqual(['urlN8N'])
  expect(failingFields({ type: 'webhook', name: '  a ' })).toEqual(['name', 'urlN8N'])
})

test('jsonContent must be a JSON object; urlN8N an http(s) address; typebotSlug a path segment', () => {
  const dialogflow = { type: 'dialogflow' as const, projectName: 'agent-1', language: 'en' }
  expect(failingFields({ ...dialogflow, jsonContent: '{"type": "service_account"' })).toEqual(['jsonContent'])
  expect(failingFields({ ...dialogflow, jsonContent: '[1, 2]' })).toEqual(['jsonContent'])
  expect(failingFields({ ...dialogflow, jsonContent: '"key"' })).toEqual(['jsonContent'])
  expect(failingFields({ ...dialogflow, jsonContent: '{"type": "service_account"}' })).toEqual([])
  expect(failingFields({ type: 'n8n', urlN8N: 'not a url' })).toEqual(['urlN8N'])
  expect(failingFields({ type: 'typebot', urlN8N: 'https://typebot.example.com', typebotSlug: 'my bot/../x' })).toEqual(['typebotSlug'])
})

test('a webhook copies its name to projectName and drops what only other types use', () => {
  const values = normalizeIntegration({
    ...base,
    name: ' Orders hook ',
    projectName: 'ignored',
    jsonContent: '{"private_key": "secret"}',
    language: 'en',
    urlN8N: ' https://hooks.example.com/orders ',
    typebotSlug: 'left-over',
    typebotExpires: 30,
  })
  expect(values).toEqual({ ...base, name: 'Orders hook', projectName: 'Orders hook', urlN8N: 'https://hooks.example.com/orders' })
})

test('dialogflow keeps its key and language and drops the URL and typebot settings', () => {
  const values = normalizeIntegration({
    ...base,
    type: 'dialogflow',
    projectName: ' agent-1 ',
    jsonContent: ' {"type": "service_account"} ',
    language: 'pt-BR',
    urlN8N: 'https://left.over',
    typebotDelayMessage: 5,
  })
  expect(values).toMatchObject({ projectName: 'agent-1', jsonContent: '{"type": "service_account"}', language: 'pt-BR', urlN8N: '', typebotDelayMessage: 1000 })
})

test('typebot keeps its settings, trimmed', () => {
  const values = normalizeIntegration({
    ...base,
    type: 'typebot',
    urlN8N: 'https://typebot.example.com',
    typebotSlug: ' lead-form ',
    typebotExpires: 15,
    typebotKeywordFinish: ' #exit ',
    typebotDelayMessage: 250,
  })
  expect(values).toMatchObject({ projectName: 'Bot', typebotSlug: 'lead-form', typebotExpires: 15, typebotKeywordFinish: '#exit', typebotDelayMessage: 250 })
})
