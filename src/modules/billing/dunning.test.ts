import { describe, expect, test } from 'bun:test'
import { reminderKindFor } from './dunning.ts'
import { formatAmount, mailLanguageOf, reminderMail } from './reminder-templates.ts'

describe('reminderKindFor', () => {
  const rule = { dueDate: '2026-12-10', daysBefore: 3, daysAfter: 2 }
  test('nothing until the days before, then before, due, after', () => {
    expect(reminderKindFor({ ...rule, today: '2026-12-06' })).toBeNull()
    expect(reminderKindFor({ ...rule, today: '2026-12-07' })).toBe('before')
    expect(reminderKindFor({ ...rule, today: '2026-12-09' })).toBe('before')
    expect(reminderKindFor({ ...rule, today: '2026-12-10' })).toBe('due')
    expect(reminderKindFor({ ...rule, today: '2026-12-11' })).toBe('due')
    expect(reminderKindFor({ ...rule, today: '2026-12-12' })).toBe('after')
    expect(reminderKindFor({ ...rule, today: '2027-03-01' })).toBe('after')
  })
})

describe('reminder e-mails', () => {
  const input = { companyName: 'Padaria', amount: 'R$ 49,00', dueDate: '10/12/2026', blockedOn: '16/12/2026', payUrl: 'https://app.example/financeiro' }
  test('the language follows the country', () => {
    expect(mailLanguageOf('')).toBe('pt')
    expect(mailLanguageOf('BR')).toBe('pt')
    expect(mailLanguageOf('AR')).toBe('es')
    expect(mailLanguageOf('usa')).toBe('en')
  })

  test('each kind in each language names the amount, the date and where to pay; after names the block date', () => {
    for (const language of ['pt', 'en', 'es'] as const) {
      for (const kind of ['before', 'due', 'after'] as const) {
        const mail = reminderMail(language, kind, input)
        expect(mail.text).toContain('R$ 49,00')
        expect(mail.text).toContain('10/12/2026')
        expect(mail.text).toContain('https://app.example/financeiro')
        if (kind === 'after') expect(mail.subject).toContain('16/12/2026')
      }
    }
    expect(reminderMail('es', 'due', input).subject).toBe('Tu factura de Zapdesk vence hoy')
    expect(reminderMail('pt', 'before', input).subject).toBe('Sua fatura Zapdesk vence em 10/12/2026')
  })

  test('amounts in the language', () => {
    expect(formatAmount(149.9, 'pt').replace(/\s/g, ' ')).toBe('R$ 149,90')
    expect(formatAmount(149.9, 'en')).toBe('R$149.90')
  })
})
