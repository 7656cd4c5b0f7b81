import { expect, test } from 'bun:test'
import { emptyIntegrationForm, fieldsOfType, integrationBodyOf, integrationFormOf, validateIntegrationForm, type IntegrationFormValues } from './integration-form.ts'
import { matchesIntegrationSearch, type IntegrationRow } from './integration-row.ts'

const form = (values: Partial<IntegrationFormValues>): IntegrationFormValues => ({ ...emptyIntegrationForm(), ...values })

test('a new integration starts as a webhook with the §9 typebot defaults', () => {
  expect(emptyIntegrationForm()).toMatchObject({ type: 'webhook', typebotExpires: '1', typebotDelayMessage: '1000' })
})

test('§5 per type: name 2 to 50, URL for n8n/webhook/typebot, slug for typebot, project, key and language for dialogflow', () => {
  expect(validateIntegrationForm(form({}))).toEqual({ name: 'required', urlN8N: 'required' })
  expect(validateIntegrationForm(form({ name: 'a', urlN8N: 'hooks.example.com' }))).toEqual({ name: 'invalid', urlN8N: 'invalid' })
  expect(validateIntegrationForm(form({ name: 'x'.repeat(51), urlN8N: 'https://hooks.example.com' }))).toEqual({ name: 'invalid' })
  expect(validateIntegrationForm(form({ type: 'n8n', name: 'Flows', urlN8N: 'http://10.0.0.5:5678/webhook/a' }))).toEqual({})
  expect(validateIntegrationForm(form({ type: 'typebot', name: 'Bot', urlN8N: 'https://t.example.com' }))).toEqual({ typebotSlug: 'required' })
  expect(
    validateIntegrationForm(form({ type: 'typebot', name: 'Bot', urlN8N: 'https://t.example.com', typebotSlug: 'a b', typebotExpires: '0', typebotDelayMessage: '60001' })),
  ).toEqual({ typebotSlug: 'invalid', typebotExpires: 'invalid', typebotDelayMessage: 'invalid' })
  expect(validateIntegrationForm(form({ type: 'typebot', name: 'Bot', urlN8N: 'https://t.example.com', typebotSlug: 's', typebotExpires: ' ', typebotDelayMessage: '1.5' }))).toEqual({
    typebotExpires: 'required',
    typebotDelayMessage: 'invalid',
  })
  expect(validateIntegrationForm(form({ type: 'dialogflow', name: 'Agent' }))).toEqual({ projectName: 'required', jsonContent: 'required', language: 'required' })
  expect(validateIntegrationForm(form({ type: 'dialogflow', name: 'Agent', projectName: 'p', jsonContent: '{"a": ', language: 'en' }))).toEqual({ jsonContent: 'invalid' })
  expect(validateIntegrationForm(form({ type: 'dialogflow', name: 'Agent', projectName: 'p', jsonContent: '[]', language: 'en' }))).toEqual({ jsonContent: 'invalid' })
  // The fields of another type are not checked: they are not sent.
  expect(validateIntegrationForm(form({ type: 'dialogflow', name: 'Agent', projectName: 'p', jsonContent: '{}', language: 'es', urlN8N: 'nonsense' }))).toEqual({})
})

test('the body carries the fields of the type only; the name is the projectName of n8n, webhook and typebot', () => {
  expect(integrationBodyOf(form({ type: 'webhook', name: ' Hook ', urlN8N: ' https://h.example.com ', jsonContent: '{"secret": 1}', typebotSlug: 'x' }))).toEqual({
    type: 'webhook',
    name: 'Hook',
    projectName: 'Hook',
    urlN8N: 'https://h.example.com',
  })
  expect(integrationBodyOf(form({ type: 'typebot', name: 'Bot', urlN8N: 'https://t.example.com', typebotSlug: ' s ', typebotExpires: ' 15', typebotDelayMessage: '250', typebotKeywordFinish: ' #exit ' }))).toEqual({
    type: 'typebot',
    name: 'Bot',
    projectName: 'Bot',
    urlN8N: 'https://t.example.com',
    typebotSlug: 's',
    typebotExpires: 15,
    typebotDelayMessage: 250,
    typebotKeywordFinish: '#exit',
    typebotKeywordRestart: '',
    typebotRestartMessage: '',
    typebotUnknownMessage: '',
  })
  expect(integrationBodyOf(form({ type: 'dialogflow', name: 'Agent', projectName: ' agent-1 ', jsonContent: ' {} ', language: 'pt-BR', urlN8N: 'https://x.example.com' }))).toEqual({
    type: 'dialogflow',
    name: 'Agent',
    projectName: 'agent-1',
    jsonContent: '{}',
    language: 'pt-BR',
  })
})

test('editing starts from the stored values; a webhook does not show its copied projectName', () => {
  const row: IntegrationRow = {
    id: 1,
    type: 'webhook',
    name: 'Hook',
    projectName: 'Hook',
    jsonContent: '',
    language: '',
    urlN8N: 'https://h.example.com',
    typebotSlug: '',
    typebotExpires: 1,
    typebotKeywordFinish: '',
    typebotKeywordRestart: '',
    typebotRestartMessage: '',
    typebotUnknownMessage: '',
    typebotDelayMessage: 1000,
  }
  expect(integrationFormOf(row)).toMatchObject({ type: 'webhook', name: 'Hook', projectName: '', urlN8N: 'https://h.example.com', typebotExpires: '1', language: '' })
  expect(integrationFormOf({ ...row, type: 'dialogflow', projectName: 'agent-1', language: 'es' })).toMatchObject({ projectName: 'agent-1', language: 'es' })
})

test('a stored Dialogflow key is only shown masked: left empty it is kept (not sent), a pasted one replaces it', () => {
  const stored = form({ type: 'dialogflow', name: 'Agent', projectName: 'agent-1', language: 'es', storedKey: '**** bot@agent-1.iam.gserviceaccount.com' })
  expect(validateIntegrationForm(stored)).toEqual({})
  expect(integrationBodyOf(stored)).toEqual({ type: 'dialogflow', name: 'Agent', projectName: 'agent-1', jsonContent: undefined, language: 'es' })
  expect(integrationBodyOf({ ...stored, jsonContent: ' {"type": "service_account"} ' }).jsonContent).toBe('{"type": "service_account"}')
  expect(validateIntegrationForm({ ...stored, jsonContent: 'not json' })).toEqual({ jsonContent: 'invalid' })
})

test('the fields each type shows, and the search as the server does it', () => {
  expect(fieldsOfType('dialogflow')).toEqual(['name', 'projectName', 'jsonContent', 'language'])
  expect(fieldsOfType('n8n')).toEqual(['name', 'urlN8N'])
  expect(fieldsOfType('typebot')).toContain('typebotSlug')
  expect(matchesIntegrationSearch({ name: 'Sales Hook' }, 'hook')).toBe(true)
  expect(matchesIntegrationSearch({ name: 'Sales Hook' }, 'flow')).toBe(false)
  expect(matchesIntegrationSearch({ name: 'Sales Hook' }, '')).toBe(true)
})
