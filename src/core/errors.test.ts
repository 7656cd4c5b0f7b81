import { describe, expect, test } from 'bun:test'
import { AppError, invalidField, validationBody, validationError } from './errors.ts'

describe('the field-level validation error', () => {
  test('invalidField is a 422 ERR_VALIDATION naming one field and why', () => {
    const error = invalidField('sendAt', 'sendAt must be in the future')
    expect(error).toBeInstanceOf(AppError)
    expect(error.code).toBe('ERR_VALIDATION')
    expect(error.status).toBe(422)
    expect(error.toBody()).toEqual({ error: 'ERR_VALIDATION', fields: [{ field: 'sendAt', message: 'sendAt must be in the future' }] })
  })

  test('validationError names every field at fault, in order', () => {
    const fields = [
      { field: 'name', message: 'name is required' },
      { field: 'urlN8N', message: 'urlN8N is required' },
    ]
    expect(validationError(fields).toBody()).toEqual({ error: 'ERR_VALIDATION', fields })
  })

  test('validationBody is the same body, error first (the HTTP mapper answers it as is)', () => {
    const body = validationBody([{ field: 'body', message: 'could not be parsed' }])
    expect(JSON.stringify(body)).toBe('{"error":"ERR_VALIDATION","fields":[{"field":"body","message":"could not be parsed"}]}')
    expect(invalidField('body', 'could not be parsed').toBody()).toEqual(body)
  })
})
