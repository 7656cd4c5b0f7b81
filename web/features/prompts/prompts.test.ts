import { describe, expect, test } from 'bun:test'
import { promptBody, promptFormOf, promptProblems, type PromptFormValues } from './prompt-form.ts'
import { applyQueueChange, removePrompt, upsertPrompt, type PromptRow } from './prompt-row.ts'

const valid: PromptFormValues = {
  name: 'Bakery bot',
  prompt: 'You are the assistant of a bakery. Answer politely and briefly.',
  model: 'gpt-4o-mini',
  maxTokens: 300,
  temperature: 0.7,
  apiKey: ' sk-key ',
  storedKey: '',
  queueId: 4,
  maxMessages: 12,
  baseUrl: ' http://llm.lan:8000/v1 ',
  transcribeAudio: true,
}

function row(id: number, name: string, queueId: number | null = 1): PromptRow {
  return { id, name, prompt: 'x'.repeat(50), model: 'gpt-3.5-turbo-1106', maxTokens: 100, temperature: 1, apiKey: '****', queueId, maxMessages: 10, baseUrl: null, transcribeAudio: false, queue: queueId === null ? null : { id: queueId, name: 'Orders' } }
}

describe('prompt form (§5, §9)', () => {
  test('a new prompt starts from the §9 defaults, without a queue', () => {
    expect(promptFormOf(null)).toEqual({ name: '', prompt: '', model: 'gpt-3.5-turbo-1106', maxTokens: 100, temperature: 1, apiKey: '', storedKey: '', queueId: null, maxMessages: 10, baseUrl: '', transcribeAudio: false })
  })

  test('valid values give the trimmed body', () => {
    expect(promptProblems(valid)).toEqual([])
    expect(promptBody(valid)).toEqual({ name: 'Bakery bot', prompt: valid.prompt, model: 'gpt-4o-mini', maxTokens: 300, temperature: 0.7, apiKey: 'sk-key', queueId: 4, maxMessages: 12, baseUrl: 'http://llm.lan:8000/v1', transcribeAudio: true })
  })

  test('editing: the key comes masked and is not shown; left empty it is kept (not sent), a new one replaces it', () => {
    const form = promptFormOf({ ...row(3, 'Stored key'), apiKey: '****WXYZ' })
    expect(form).toMatchObject({ apiKey: '', storedKey: '****WXYZ' })
    const edited = { ...valid, apiKey: '', storedKey: '****WXYZ' }
    expect(promptProblems(edited)).toEqual([])
    expect(promptBody(edited)?.apiKey).toBeUndefined()
    expect(promptBody({ ...edited, apiKey: ' sk-new ' })?.apiKey).toBe('sk-new')
    expect(promptProblems({ ...valid, apiKey: '' })).toEqual(['apiKey'])
  })

  test('any model name a self-hosted server uses is accepted, trimmed; the §9 names are only suggestions', () => {
    for (const model of ['llama3.1:8b', 'mistralai/Mistral-7B-Instruct-v0.3', 'qwen2.5:14b-instruct-q4_K_M', 'gpt-4o-2024-08-06']) {
      expect(promptProblems({ ...valid, model })).toEqual([])
      expect(promptBody({ ...valid, model: ` ${model} ` })?.model).toBe(model)
    }
    expect(promptFormOf({ ...row(3, 'Local'), model: 'llama3.1:8b' }).model).toBe('llama3.1:8b')
  })

  test('each rule names its field, and nothing is to be sent', () => {
    const cases: [Partial<PromptFormValues>, string][] = [
      [{ name: ' abcd ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ prompt: 'x'.repeat(49) }, 'prompt'],
      [{ maxTokens: null }, 'maxTokens'],
      [{ maxTokens: 0 }, 'maxTokens'],
      [{ maxTokens: 4097 }, 'maxTokens'],
      [{ temperature: null }, 'temperature'],
      [{ temperature: 1.1 }, 'temperature'],
      [{ apiKey: '   ' }, 'apiKey'],
      [{ queueId: null }, 'queueId'],
      [{ maxMessages: 0 }, 'maxMessages'],
      [{ maxMessages: 2.5 }, 'maxMessages'],
      [{ model: '  ' }, 'model'],
      [{ model: 'llama 3' }, 'model'],
      [{ model: '-flag' }, 'model'],
      [{ model: 'm'.repeat(201) }, 'model'],
    ]
    for (const [change, field] of cases) {
      expect(promptProblems({ ...valid, ...change })).toEqual([field as never])
      expect(promptBody({ ...valid, ...change })).toBeUndefined()
    }
  })
})

describe('prompt rows', () => {
  test('upsert keeps the server order (name, id); remove drops by id', () => {
    const rows = upsertPrompt(upsertPrompt([], row(2, 'Zeta')), row(1, 'Alpha'))
    expect(rows.map((prompt) => prompt.id)).toEqual([1, 2])
    expect(upsertPrompt(rows, row(2, 'Aardvark')).map((prompt) => prompt.name)).toEqual(['Aardvark', 'Alpha'])
    expect(removePrompt(rows, 1).map((prompt) => prompt.id)).toEqual([2])
  })

  test("a renamed queue renames the rows' queue; a deleted one leaves them without", () => {
    const rows = [row(1, 'Alpha', 1), row(2, 'Beta', 2)]
    expect(applyQueueChange(rows, { queueId: 1, name: 'Sales' }).map((prompt) => prompt.queue?.name)).toEqual(['Sales', 'Orders'])
    expect(applyQueueChange(rows, { queueId: 2, name: null })[1]).toMatchObject({ queueId: null, queue: null })
    expect(applyQueueChange(rows, { queueId: 9, name: null })).toBe(rows)
  })
})
