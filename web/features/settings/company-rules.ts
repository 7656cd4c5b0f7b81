// The companies tab's rules without React: the §9 row colour by days to the due date, the §5 checks of
// the company form and the body sent for it.
import { daysUntil } from '../../i18n/format.ts'
import { isEmail, isStrongPassword, lengthBetween } from '../../forms/validation.ts'

export const recurrences = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const
export type Recurrence = (typeof recurrences)[number]

/**
 * §9 "Company row colours by days to due date: 5 yellow, -3 to 4 orange, -4 red". Yellow is exactly
 * five days ahead; orange from four days ahead to three days past; red from four days past on (a
 * company long overdue stays red rather than losing its colour). No due date: never expires, no colour.
 */
export type DueTone = 'yellow' | 'orange' | 'red'

export function dueToneOf(days: number | null): DueTone | null {
  if (days === null) return null
  if (days === 5) return 'yellow'
  if (days >= -3 && days <= 4) return 'orange'
  if (days <= -4) return 'red'
  return null
}

export function daysToDue(dueDate: string | null, now = new Date()): number | null {
  return dueDate ? daysUntil(dueDate, now) : null
}

export type CompanyFormValues = {
  name: string
  email: string
  phone: string
  planId: number | null
  status: boolean
  /** YYYY-MM-DD from the date input; empty: no due date. */
  dueDate: string
  recurrence: Recurrence
  campaignsEnabled: boolean
  /** Only when creating: with it, the company's first admin is created (signs in with the e-mail). */
  password: string
}

export type CompanyField = 'name' | 'email' | 'phone' | 'planId' | 'password' | 'dueDate' | 'recurrence'
export type CompanyProblem = 'name' | 'email' | 'emailForAdmin' | 'phone' | 'planId' | 'password'

/** §5 (the signup's rules, which a super user's company shares): what is wrong, by field. */
export function companyProblems(values: CompanyFormValues, creating: boolean): Partial<Record<CompanyField, CompanyProblem>> {
  const problems: Partial<Record<CompanyField, CompanyProblem>> = {}
  if (!lengthBetween(values.name, 2, 50)) problems.name = 'name'
  const email = values.email.trim()
  if (email !== '' && !isEmail(email)) problems.email = 'email'
  else if (creating && values.password !== '' && email === '') problems.email = 'emailForAdmin'
  if (values.phone.replace(/\D/g, '').length > 11) problems.phone = 'phone'
  if (values.planId === null) problems.planId = 'planId'
  if (creating && values.password !== '' && (!isStrongPassword(values.password) || values.password.length > 200)) problems.password = 'password'
  return problems
}

/** What the API takes: an empty due date is sent as null (§5 "Company save"), the password only when given. */
export function companyBody(values: CompanyFormValues, creating: boolean) {
  return {
    name: values.name.trim(),
    email: values.email.trim(),
    phone: values.phone.replace(/\D/g, ''),
    planId: values.planId ?? 0,
    status: values.status,
    dueDate: values.dueDate === '' ? null : values.dueDate,
    recurrence: values.recurrence,
    campaignsEnabled: values.campaignsEnabled,
    ...(creating && values.password !== '' ? { password: values.password } : {}),
  }
}

/** A new company: active, monthly, due in 30 days, on the first plan offered. */
export function emptyCompanyForm(planId: number | null, now = new Date()): CompanyFormValues {
  const due = new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate() + 30))
  return { name: '', email: '', phone: '', planId, status: true, dueDate: due.toISOString().slice(0, 10), recurrence: 'MENSAL', campaignsEnabled: true, password: '' }
}
