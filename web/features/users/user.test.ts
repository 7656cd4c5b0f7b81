import { expect, test } from 'bun:test'
import { emptyUserForm, fieldErrorsOf, matchesSearch, userBodyOf, validateUserForm, type UserFormValues } from './user.ts'

const filled: UserFormValues = { ...emptyUserForm(), name: ' Bruno Reis ', email: ' bruno@example.com ', password: 'Abcde123', queueIds: [3], whatsappId: 7 }

test('§5 user: name 2 to 50, valid e-mail, password required to create and following the reset rule when given', () => {
  expect(validateUserForm(filled, true)).toEqual({})
  expect(validateUserForm({ ...filled, name: ' B ', email: 'bruno@', password: '' }, true)).toEqual({ name: 'name', email: 'email', password: 'passwordRequired' })
  expect(validateUserForm({ ...filled, password: 'abcd' }, true)).toEqual({ password: 'password' })
  // Five characters no longer make a password: 8 with an uppercase letter, a lowercase letter and a digit.
  expect(validateUserForm({ ...filled, password: 'abcdefgh1' }, true)).toEqual({ password: 'password' })
  expect(validateUserForm({ ...filled, password: `Ab1${'x'.repeat(198)}` }, false)).toEqual({ password: 'password' })
  // An edit keeps the stored password when the field is left empty.
  expect(validateUserForm({ ...filled, password: '' }, false)).toEqual({})
  expect(validateUserForm({ ...filled, name: 'x'.repeat(51) }, false)).toEqual({ name: 'name' })
})

test('the body: trimmed, profile/allTicket/queues only with edit access, password only when typed on an edit', () => {
  expect(userBodyOf(filled, { creating: true, editAccess: true })).toEqual({
    name: 'Bruno Reis',
    email: 'bruno@example.com',
    password: 'Abcde123',
    whatsappId: 7,
    profile: 'user',
    allTicket: 'desabled',
    queueIds: [3],
  })
  expect(userBodyOf({ ...filled, password: '' }, { creating: false, editAccess: false })).toEqual({ name: 'Bruno Reis', email: 'bruno@example.com', whatsappId: 7 })
  expect(userBodyOf({ ...filled, whatsappId: null }, { creating: false, editAccess: false })).toEqual({
    name: 'Bruno Reis',
    email: 'bruno@example.com',
    whatsappId: null,
    password: 'Abcde123',
  })
})

test("the server's refusals land on their fields; a list item's path names its list", () => {
  expect(fieldErrorsOf({ code: 'ERR_VALIDATION', fields: [{ field: 'password' }, { field: 'queueIds.0' }, { field: 'body' }] })).toEqual({
    password: 'password',
    queueIds: 'queueIds',
  })
  expect(fieldErrorsOf({ code: 'ERR_EMAIL_ALREADY_EXISTS', fields: [] })).toEqual({ email: 'emailTaken' })
  expect(fieldErrorsOf({ code: 'ERR_PLAN_LIMIT_USERS', fields: [] })).toEqual({})
})

test('a live user joins a searched list only when the server would list him', () => {
  expect(matchesSearch({ name: 'Bruno Reis', email: 'b@example.com' }, '')).toBe(true)
  expect(matchesSearch({ name: 'Bruno Reis', email: 'b@example.com' }, 'REIS')).toBe(true)
  expect(matchesSearch({ name: 'Bruno Reis', email: 'b@example.com' }, 'example')).toBe(true)
  expect(matchesSearch({ name: 'Bruno Reis', email: 'b@example.com' }, 'ana')).toBe(false)
})

test('your own new password takes the current one; another user\'s does not', () => {
  const filled: UserFormValues = { ...emptyUserForm(), name: 'Bruno Reis', email: 'bruno@example.com', password: 'Mine12345' }
  expect(validateUserForm(filled, false, { self: true })).toEqual({ currentPassword: 'currentPassword' })
  expect(validateUserForm({ ...filled, currentPassword: 'Old12345' }, false, { self: true })).toEqual({})
  expect(validateUserForm(filled, false)).toEqual({})
  expect(userBodyOf({ ...filled, currentPassword: 'Old12345' }, { creating: false, editAccess: false })).toMatchObject({ password: 'Mine12345', currentPassword: 'Old12345' })
  expect(fieldErrorsOf({ code: 'ERR_VALIDATION', fields: [{ field: 'currentPassword' }] })).toEqual({ currentPassword: 'currentPassword' })
})
