import { describe, expect, test } from 'bun:test'
import { refusalErrors } from './refusal-errors.ts'

const texts = { name: 'Enter a name.', color: 'Pick a colour.' }
const taken = { code: 'ERR_TAG_NAME_ALREADY_EXISTS', field: 'name' as const }
const describeCode = (code: string) => `text of ${code}`

describe('a form refused by the server', () => {
  test("the fields of a 422 get the form's own texts, and nothing form-level", () => {
    const errors = refusalErrors({ status: 422, code: 'ERR_VALIDATION', fields: [{ field: 'color', message: 'bad' }] }, texts, describeCode, taken)
    expect(errors).toEqual({ color: 'Pick a colour.' })
  })
  test("a duplicate lands on its field with the catalogue's text", () => {
    expect(refusalErrors({ status: 409, code: 'ERR_TAG_NAME_ALREADY_EXISTS', fields: [] }, texts, describeCode, taken)).toEqual({ name: 'text of ERR_TAG_NAME_ALREADY_EXISTS' })
  })
  test('anything else is one form-level message', () => {
    expect(refusalErrors({ status: 500, code: 'ERR_INTERNAL', fields: [] }, texts, describeCode, taken)).toEqual({ form: 'text of ERR_INTERNAL' })
    expect(refusalErrors({ status: 409, code: 'ERR_TAG_NAME_ALREADY_EXISTS', fields: [] }, texts, describeCode)).toEqual({ form: 'text of ERR_TAG_NAME_ALREADY_EXISTS' })
  })
})
