import { describe, expect, test } from 'bun:test'
import { containsPattern } from './sql.ts'

describe('containsPattern', () => {
  test('wraps the text in % wildcards', () => {
    expect(containsPattern('maria')).toBe('%maria%')
    expect(containsPattern('')).toBe('%%')
  })

  test('escapes the LIKE wildcards % and _ so they match themselves', () => {
    expect(containsPattern('50%')).toBe('%50\\%%')
    expect(containsPattern('a_b')).toBe('%a\\_b%')
  })

  test('escapes the escape character itself, before anything else', () => {
    expect(containsPattern('C:\\temp')).toBe('%C:\\\\temp%')
    expect(containsPattern('\\%')).toBe('%\\\\\\%%')
  })
})
