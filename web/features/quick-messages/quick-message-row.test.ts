import { describe, expect, test } from 'bun:test'
import { canEditQuickMessage, messagePreview, storedFileName } from './quick-message-row.ts'

describe('quick message rows', () => {
  const admin = { id: 1, profile: 'admin' as const, super: false }
  const agent = { id: 2, profile: 'user' as const, super: false }
  const platform = { id: 3, profile: 'user' as const, super: true }

  test('your own is yours to edit; a shared one also an admin\'s; nobody else\'s personal one', () => {
    expect(canEditQuickMessage(agent, { userId: 2, geral: false })).toBe(true)
    expect(canEditQuickMessage(agent, { userId: 2, geral: true })).toBe(true)
    expect(canEditQuickMessage(agent, { userId: 1, geral: true })).toBe(false)
    expect(canEditQuickMessage(admin, { userId: 2, geral: true })).toBe(true)
    expect(canEditQuickMessage(platform, { userId: 2, geral: true })).toBe(true)
    expect(canEditQuickMessage(admin, { userId: 2, geral: false })).toBe(false)
    expect(canEditQuickMessage(admin, { userId: null, geral: false })).toBe(false)
    expect(canEditQuickMessage(null, { userId: 2, geral: true })).toBe(false)
  })

  test('file names have spaces replaced by underscores', () => {
    expect(storedFileName('price list 2026.pdf')).toBe('price_list_2026.pdf')
    expect(storedFileName('a  b\tc.png')).toBe('a_b_c.png')
    expect(storedFileName('plain.txt')).toBe('plain.txt')
  })

  test('the preview is one line, cut with an ellipsis', () => {
    expect(messagePreview('Hello\n  there')).toBe('Hello there')
    expect(messagePreview('x'.repeat(61))).toBe(`${'x'.repeat(59)}…`)
    expect(messagePreview('x'.repeat(60))).toBe('x'.repeat(60))
  })
})
