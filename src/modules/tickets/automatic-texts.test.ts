import { describe, expect, test } from 'bun:test'
import { acceptGreeting, transferNotice } from './automatic-texts.ts'

describe('automatic texts', () => {
  test('the greeting names the agent in bold; the notice names the queue and/or the agent', () => {
    expect(acceptGreeting('Ana')).toContain('*Ana*')
    expect(transferNotice({ queueName: 'Suporte' })).toContain('setor *Suporte*')
    expect(transferNotice({ userName: 'Ana' })).toContain('atendente *Ana*')
    expect(transferNotice({ queueName: 'Suporte', userName: 'Ana' })).toContain('setor *Suporte* e será atendido por *Ana*')
  })
})
