import { describe, expect, test } from 'bun:test'
import { serverFieldErrors } from './server-errors.ts'

describe('server field errors', () => {
  test("the fields the form shows get their rule's text; a list's item counts for the list; others are left out", () => {
    const texts = { name: 'Enter a name.', queueIds: 'Choose among the queues.' }
    const failure = { fields: [{ field: 'name' }, { field: 'queueIds.2' }, { field: 'profile' }] }
    expect(serverFieldErrors(failure, texts)).toEqual({ name: 'Enter a name.', queueIds: 'Choose among the queues.' })
    expect(serverFieldErrors({ fields: [] }, texts)).toEqual({})
  })
  test('an inherited name is no field of the form', () => {
    expect(serverFieldErrors({ fields: [{ field: 'toString' }] }, { name: 'x' })).toEqual({})
  })
})
