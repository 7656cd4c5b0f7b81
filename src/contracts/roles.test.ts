import { describe, expect, test } from 'bun:test'
import { isAdmin, isSupervisorOrAdmin } from './roles.ts'

describe('isAdmin', () => {
  test('profile admin, or a platform super user whatever his profile', () => {
    expect(isAdmin({ profile: 'admin', super: false })).toBe(true)
    expect(isAdmin({ profile: 'user', super: true })).toBe(true)
    expect(isAdmin({ profile: 'supervisor', super: true })).toBe(true)
  })

  test('plain users, supervisors and nobody are not admins', () => {
    expect(isAdmin({ profile: 'user', super: false })).toBe(false)
    expect(isAdmin({ profile: 'supervisor', super: false })).toBe(false)
    expect(isAdmin(null)).toBe(false)
    expect(isAdmin(undefined)).toBe(false)
  })
})

describe('isSupervisorOrAdmin', () => {
  test('admins, supervisors and super users; plain users and nobody do not', () => {
    expect(isSupervisorOrAdmin({ profile: 'admin', super: false })).toBe(true)
    expect(isSupervisorOrAdmin({ profile: 'supervisor', super: false })).toBe(true)
    expect(isSupervisorOrAdmin({ profile: 'user', super: true })).toBe(true)
    expect(isSupervisorOrAdmin({ profile: 'user', super: false })).toBe(false)
    expect(isSupervisorOrAdmin(null)).toBe(false)
  })
})
