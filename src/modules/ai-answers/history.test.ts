import { describe, expect, test } from 'bun:test'
import { buildChatMessages, handoffInstruction } from './history.ts'

describe('buildChatMessages', () => {
  test('the instructions come first with the hand-off rule; customer is user, ours is assistant, oldest first', () => {
    const messages = buildChatMessages({
      instructions: '  You are the bakery assistant.  ',
      maxMessages: 10,
      messages: [
        { body: 'Hi', fromMe: false, mediaType: 'chat' },
        { body: 'Hello! How can I help?', fromMe: true, mediaType: 'chat' },
        { body: 'Do you have bread?', fromMe: false, mediaType: 'chat' },
      ],
    })
    expect(messages).toEqual([
      { role: 'system', content: `You are the bakery assistant.\n\n${handoffInstruction}` },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello! How can I help?' },
      { role: 'user', content: 'Do you have bread?' },
    ])
  })

  test('only the last maxMessages count; media without a caption shows as its kind; empty texts are left out', () => {
    const messages = buildChatMessages({
      instructions: 'Be brief.',
      maxMessages: 2,
      messages: [
        { body: 'first', fromMe: false, mediaType: 'chat' },
        { body: '', fromMe: false, mediaType: 'chat' },
        { body: '', fromMe: false, mediaType: 'image' },
        { body: 'a caption', fromMe: false, mediaType: 'video' },
      ],
    })
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: '[image]' },
      { role: 'user', content: 'a caption' },
    ])
  })
})
