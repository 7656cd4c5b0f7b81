// How each kind's answer is read: Typebot's bubbles and choices, a webhook's answer, Dialogflow's
// fulfilment; what is ignored, and what fails (so the queue's normal flow takes over).
import { describe, expect, test } from 'bun:test'
import { IntegrationFailed } from './bot-reply.ts'
import { dialogflowTurnOf } from './dialogflow-client.ts'
import { pickChoice, richTextToWhatsApp, turnOf } from './typebot-client.ts'
import { parseWebhookAnswer } from './webhook-client.ts'

describe('Typebot', () => {
  test('rich text becomes WhatsApp text: bold, italic, one line per block, links kept', () => {
    const text = richTextToWhatsApp([
      { type: 'p', children: [{ text: 'Hello ' }, { text: 'Joana', bold: true }, { text: ', ' }, { text: 'welcome', italic: true }] },
      { type: 'p', children: [{ type: 'a', url: 'https://zap.example/menu', children: [{ text: 'our menu' }] }] },
    ])
    expect(text).toBe('Hello *Joana*, _welcome_\nour menu (https://zap.example/menu)')
  })

  test('bubbles in order, media by URL, a hosted video as a link, the choices as a numbered list; no input is the end', () => {
    const turn = turnOf(
      {
        messages: [
          { type: 'text', content: { type: 'markdown', markdown: 'Hi' } },
          { type: 'image', content: { url: 'https://cdn.example/a.png' } },
          { type: 'video', content: { url: 'https://youtu.be/x', type: 'youtube' } },
          { type: 'audio', content: { url: 'https://cdn.example/a.ogg' } },
          { type: 'unknown bubble', content: {} },
        ],
        input: { type: 'choice input', items: [{ content: 'Bread' }, { content: 'Cakes' }] },
      },
      's1',
    )
    expect(turn.items).toEqual([
      { kind: 'text', text: 'Hi' },
      { kind: 'media', mediaType: 'image', url: 'https://cdn.example/a.png', caption: '' },
      { kind: 'text', text: 'https://youtu.be/x' },
      { kind: 'media', mediaType: 'audio', url: 'https://cdn.example/a.ogg', caption: '' },
      { kind: 'text', text: '1 - Bread\n2 - Cakes' },
    ])
    expect(turn).toMatchObject({ sessionId: 's1', choices: ['Bread', 'Cakes'], ended: false })
    expect(turnOf({ messages: [] }, 's1').ended).toBe(true)
  })

  test('a choice is answered by its number or its text, in any case', () => {
    expect(pickChoice(['Bread', 'Cakes'], ' 2 ')).toBe('Cakes')
    expect(pickChoice(['Bread', 'Cakes'], 'bread')).toBe('Bread')
    expect(pickChoice(['Bread', 'Cakes'], '3')).toBeUndefined()
    expect(pickChoice(['Bread', 'Cakes'], 'pie')).toBeUndefined()
  })
})

describe('webhook answers', () => {
  test('empty is nothing to say; strings, texts and media; an array of one object (n8n); the actions', () => {
    expect(parseWebhookAnswer('')).toEqual({ items: [], action: { type: 'keep' } })
    expect(parseWebhookAnswer(JSON.stringify([{ messages: ['a', { text: 'b' }, { body: '' }, { mediaUrl: 'https://x/y.pdf', caption: 'c' }], action: 'close' }]))).toEqual({
      items: [
        { kind: 'text', text: 'a' },
        { kind: 'text', text: 'b' },
        { kind: 'media', mediaType: 'document', url: 'https://x/y.pdf', caption: 'c' },
      ],
      action: { type: 'close' },
    })
    expect(parseWebhookAnswer('{"action":"transfer","queueId":"4","reason":"Sales"}').action).toEqual({ type: 'transfer', queueId: 4, reason: 'Sales' })
    expect(parseWebhookAnswer('{"text":"hi","action":"human"}')).toEqual({ items: [{ kind: 'text', text: 'hi' }], action: { type: 'human', reason: 'The integration handed the conversation to a person' } })
  })

  test('what cannot be acted on fails', () => {
    for (const answer of ['not json', '"text"', '{"messages":"hi"}', '{"action":"transfer"}', '{"action":"explode"}']) {
      expect(() => parseWebhookAnswer(answer)).toThrow(IntegrationFailed)
    }
  })
})

describe('Dialogflow', () => {
  test('the platform-less fulfilment texts, else fulfillmentText; endInteraction or end_conversation ends', () => {
    const turn = dialogflowTurnOf({
      queryResult: {
        fulfillmentText: 'ignored',
        fulfillmentMessages: [{ text: { text: ['One', ''] } }, { platform: 'FACEBOOK', text: { text: ['FB'] } }, { text: { text: ['Two'] } }],
        intent: { displayName: 'hours', endInteraction: false },
      },
    })
    expect(turn).toEqual({ items: [{ kind: 'text', text: 'One' }, { kind: 'text', text: 'Two' }], intent: 'hours', ended: false })
    expect(dialogflowTurnOf({ queryResult: { fulfillmentText: 'Bye', diagnosticInfo: { end_conversation: true } } })).toEqual({ items: [{ kind: 'text', text: 'Bye' }], intent: '', ended: true })
    expect(() => dialogflowTurnOf({})).toThrow(IntegrationFailed)
  })
})
