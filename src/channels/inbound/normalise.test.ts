import { describe, expect, test } from 'bun:test'
import type { InboundMessage } from '../provider.ts'
import { realName } from '../../modules/contacts/number.ts'
import { contactNumberOf, normaliseInbound } from './normalise.ts'

const base: InboundMessage = { id: 'ABC', from: '5511999990000', fromMe: false, isGroup: false, timestamp: new Date('2026-01-02T03:04:05Z'), body: 'hi', mediaType: 'chat' }

describe('normaliseInbound', () => {
  test('files a person under his digits and keeps a real WhatsApp name', () => {
    const message = normaliseInbound({ ...base, from: '5511999990000@s.whatsapp.net', pushName: '  Ana  ' })
    expect(message).toMatchObject({ number: '5511999990000', senderName: 'Ana', body: 'hi' })
  })

  test('never takes the name from our own messages, from a group member, or when it is just the number', () => {
    expect(normaliseInbound({ ...base, fromMe: true, pushName: 'Our Shop' })!.senderName).toBeUndefined()
    expect(normaliseInbound({ ...base, from: '120363012345678901', isGroup: true, pushName: 'Member' })!.senderName).toBeUndefined()
    expect(normaliseInbound({ ...base, pushName: '+55 11 99999-0000' })!.senderName).toBeUndefined()
  })

  test('groups keep their id (with the old dash form); members are digits', () => {
    expect(normaliseInbound({ ...base, from: '5511999-1600000000@g.us', isGroup: true, participant: '5511888887777@s.whatsapp.net' })).toMatchObject({ number: '5511999-1600000000', participant: '5511888887777' })
  })

  test('drops NUL characters, fills a missing body and a broken date, and refuses a message without sender or id', () => {
    const now = new Date('2026-05-05T00:00:00Z')
    const message = normaliseInbound({ ...base, body: 'a\u0000b', timestamp: new Date('nonsense') }, () => now)
    expect(message).toMatchObject({ body: 'ab', timestamp: now })
    expect(normaliseInbound({ ...base, body: undefined as unknown as string })!.body).toBe('')
    expect(normaliseInbound({ ...base, from: '@s.whatsapp.net' })).toBeUndefined()
    expect(normaliseInbound({ ...base, id: '' })).toBeUndefined()
  })
})

describe('helpers', () => {
  test('contactNumberOf and realName', () => {
    expect(contactNumberOf('5511999990000:12@s.whatsapp.net', false)).toBe('5511999990000')
    expect(contactNumberOf('5511999990000', false)).toBe('5511999990000')
    expect(realName('', '1')).toBeUndefined()
    expect(realName('x'.repeat(300), '1')).toHaveLength(200)
  })
})
