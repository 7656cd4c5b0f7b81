import { expect, test } from 'bun:test'
import { canManageTags } from './tag-access.ts'

test('admins, supervisors and super users manage tags; plain users and nobody do not', () => {
  expect(canManageTags({ profile: 'admin', super: false })).toBe(true)
  expect(canManageTags({ profile: 'supervisor', super: false })).toBe(true)
  expect(canManageTags({ profile: 'user', super: true })).toBe(true)
  expect(canManageTags({ profile: 'user', super: false })).toBe(false)
  expect(canManageTags(null)).toBe(false)
})
