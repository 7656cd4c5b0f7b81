import { describe, expect, test } from 'bun:test'
import { greetingOfHour, renderTemplate } from './render.ts'

const now = new Date('2026-03-10T14:05:09Z')

describe('the message variables renderer', () => {
  test('every built-in variable, in the time zone given', () => {
    const text = renderTemplate('{{ms}} {{firstName}}|{{name}}|{{email}}|{{number}}|{{protocol}}|{{ hora }}', {
      contact: { name: ' Maria Clara ', email: 'maria@example.com', number: '5511999990000' },
      ticketId: 7,
      now,
      timezone: 'America/Sao_Paulo',
    })
    expect(text).toBe('Bom dia Maria|Maria Clara|maria@example.com|5511999990000|202603101105097|11:05:09')
  })

  test("a company's own variables, and the built-ins win a clash", () => {
    const text = renderTemplate('{{cupom}} {{name}}', { contact: { name: 'Ana' }, now, timezone: 'UTC', extra: { cupom: 'BLACK10', name: 'not this' } })
    expect(text).toBe('BLACK10 Ana')
  })

  test('unknown keys stay as written; missing data renders empty; a bad zone falls back to UTC', () => {
    expect(renderTemplate('{{unknown}} [{{email}}] {{hora}}', { now, timezone: 'Not/A_Zone' })).toBe('{{unknown}} [] 14:05:09')
    expect(renderTemplate('{{constructor}} {{__proto__}}', { now, timezone: 'UTC' })).toBe('{{constructor}} {{__proto__}}')
  })

  test('the greeting of the hour', () => {
    expect([4, 5, 11, 12, 17, 18, 23].map(greetingOfHour)).toEqual(['Boa noite', 'Bom dia', 'Bom dia', 'Boa tarde', 'Boa tarde', 'Boa noite', 'Boa noite'])
  })
})
