import { describe, expect, test } from 'bun:test'
import { acceptGreeting, fillMessageVariables, transferNotice } from './automatic-texts.ts'

describe('automatic texts', () => {
  test('the greeting names the agent in bold; the notice names the queue and/or the agent', () => {
    expect(acceptGreeting('Ana')).toContain('*Ana*')
    expect(transferNotice({ queueName: 'Suporte' })).toContain('setor *Suporte*')
    expect(transferNotice({ userName: 'Ana' })).toContain('atendente *Ana*')
    expect(transferNotice({ queueName: 'Suporte', userName: 'Ana' })).toContain('setor *Suporte* e será atendido por *Ana*')
  })

  test("fills {{firstName}}, {{name}}, {{ms}}, {{protocol}} and {{hora}} in the company's time zone", () => {
    const now = new Date('2026-03-10T14:05:09Z')
    const text = fillMessageVariables('{{ms}}, {{firstName}} ({{name}})! Protocolo {{protocol}} às {{ hora }}. {{unknown}}', {
      contactName: '  Maria Clara Souza',
      ticketId: 42,
      now,
      timezone: 'America/Sao_Paulo',
    })
    expect(text).toBe('Bom dia, Maria (Maria Clara Souza)! Protocolo 2026031011050942 às 11:05:09. {{unknown}}')
    expect(fillMessageVariables('{{hora}}', { contactName: 'x', ticketId: 1, now, timezone: 'Not/A_Zone' })).toBe('14:05:09')
  })
})
