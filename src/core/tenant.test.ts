// The super user's target-company rule; the database half (the named company must exist) is covered
// through the API by tests/integration/{users,whatsapp,queues,contacts}.test.ts.
import { describe, expect, test } from 'bun:test'
import type { Executor } from '../../db/client.ts'
import { AppError } from './errors.ts'
import { mayActOnCompany, targetCompanyId } from './tenant.ts'

// Never reached on these paths: the rule decides before it asks whether the company exists.
const noDatabase = new Proxy({}, { get: () => { throw new Error('the database was asked') } }) as Executor

describe('mayActOnCompany', () => {
  test('everyone acts on his own company', () => {
    expect(mayActOnCompany({ companyId: 3, super: false }, 3)).toBe(true)
  })

  test('only a super user acts on another one', () => {
    expect(mayActOnCompany({ companyId: 3, super: true }, 7)).toBe(true)
    expect(mayActOnCompany({ companyId: 3, super: false }, 7)).toBe(false)
  })
})

describe('targetCompanyId', () => {
  test('the caller own company when the request names none, or names his own', async () => {
    expect(await targetCompanyId(noDatabase, { companyId: 3, super: false }, undefined)).toBe(3)
    expect(await targetCompanyId(noDatabase, { companyId: 3, super: true }, undefined)).toBe(3)
    expect(await targetCompanyId(noDatabase, { companyId: 3, super: false }, 3)).toBe(3)
  })

  test('someone who is not super naming another company is refused with ERR_NO_PERMISSION', async () => {
    const refusal = await targetCompanyId(noDatabase, { companyId: 3, super: false }, 7).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(AppError)
    expect((refusal as AppError).code).toBe('ERR_NO_PERMISSION')
  })
})
