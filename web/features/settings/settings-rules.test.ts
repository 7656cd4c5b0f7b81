import { describe, expect, test } from 'bun:test'
import { companyBody, companyProblems, daysToDue, dueToneOf, emptyCompanyForm } from './company-rules.ts'
import { helpProblems } from './help-rules.ts'
import { parseLimit, parsePrice, planBody, planFormOf, planProblems } from './plan-rules.ts'

describe('company due-date colours (§9: 5 yellow, -3 to 4 orange, -4 red)', () => {
  test('by days to the due date', () => {
    expect([6, 5, 4, 0, -3, -4, -30].map(dueToneOf)).toEqual([null, 'yellow', 'orange', 'orange', 'orange', 'red', 'red'])
    expect(dueToneOf(null)).toBeNull()
  })
  test('days count calendar days in the local time zone', () => {
    const now = new Date(2026, 10, 22, 23, 30)
    expect(daysToDue('2026-11-27', now)).toBe(5)
    expect(daysToDue('2026-11-18', now)).toBe(-4)
    expect(daysToDue(null, now)).toBeNull()
  })
})

describe('company form (§5)', () => {
  const valid = { ...emptyCompanyForm(3, new Date(2026, 0, 31)), name: 'Padaria', email: 'padaria@example.com' }
  test('a new company is active, monthly, due in 30 days', () => {
    expect(valid.dueDate).toBe('2026-03-02')
    expect(valid.recurrence).toBe('MENSAL')
    expect(companyProblems(valid, true)).toEqual({})
  })
  test('name, e-mail, phone, plan and the admin password are checked', () => {
    expect(companyProblems({ ...valid, name: ' a ', email: 'nope', phone: '(11) 99999-99999', planId: null }, false)).toEqual({
      name: 'name',
      email: 'email',
      phone: 'phone',
      planId: 'planId',
    })
    expect(companyProblems({ ...valid, email: '', password: 'Secret-1' }, true)).toEqual({ email: 'emailForAdmin' })
    expect(companyProblems({ ...valid, password: 'abc' }, true)).toEqual({ password: 'password' })
    // The one password rule (§5's reset rule): 8+ characters with upper, lower and a digit.
    expect(companyProblems({ ...valid, password: 'secret-12' }, true)).toEqual({ password: 'password' })
    expect(companyProblems({ ...valid, password: 'Secret1' }, true)).toEqual({ password: 'password' })
    // Editing never sends a password: whatever the field holds is not checked.
    expect(companyProblems({ ...valid, password: 'abc' }, false)).toEqual({})
  })
  test('the body: digits of the phone, an empty due date as null, the password only on create', () => {
    const body = companyBody({ ...valid, phone: '(11) 98765-4321', dueDate: '', password: 'Secret1' }, true)
    expect(body).toMatchObject({ phone: '11987654321', dueDate: null, password: 'Secret1', planId: 3 })
    expect('password' in companyBody({ ...valid, password: 'Secret1' }, false)).toBe(false)
  })
})

describe('plan form', () => {
  test('a new plan has every feature enabled (§9) and is public', () => {
    const form = planFormOf(null)
    expect([form.useCampaigns, form.useKanban, form.useOpenAi, form.useIntegrations, form.useSchedules, form.useInternalChat, form.useExternalApi, form.isPublic]).toEqual(
      Array(8).fill(true),
    )
    expect(planProblems(form).sort()).toEqual(['connections', 'name', 'queues', 'users', 'value'])
  })
  test('limits are whole numbers of at least 1; the price takes a comma and two decimals', () => {
    expect([parseLimit('3'), parseLimit('0'), parseLimit('2.5'), parseLimit(' 10 ')]).toEqual([3, null, null, 10])
    expect([parsePrice('49,90'), parsePrice('0'), parsePrice('-1'), parsePrice('1.999')]).toEqual([49.9, 0, null, null])
    const body = planBody({ ...planFormOf(null), name: ' Gold ', users: '5', connections: '2', queues: '4', value: '99,5', useKanban: false })
    expect(body).toMatchObject({ name: 'Gold', users: 5, connections: 2, queues: 4, value: 99.5, useKanban: false, useCampaigns: true, isPublic: true })
  })
})

describe('help form', () => {
  test('title 2 to 100, video a YouTube code, an http(s) address or nothing', () => {
    expect(helpProblems({ title: 'First steps', description: '', video: 'dQw4w9WgXcQ' })).toEqual([])
    expect(helpProblems({ title: 'First steps', description: '', video: 'https://youtu.be/dQw4w9WgXcQ' })).toEqual([])
    expect(helpProblems({ title: 'F', description: 'x'.repeat(2001), video: 'not a video' })).toEqual(['title', 'description', 'video'])
  })
})
