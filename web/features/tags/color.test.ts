import { expect, test } from 'bun:test'
import { colorInputValue } from './color.ts'

test('a stored colour becomes the #rrggbb the colour input takes', () => {
  expect(colorInputValue('#5C59A0', '#000000')).toBe('#5c59a0')
  expect(colorInputValue('#abc', '#000000')).toBe('#aabbcc')
  expect(colorInputValue('#11223344', '#000000')).toBe('#112233')
  expect(colorInputValue('red', '#1d4ed8')).toBe('#1d4ed8')
  expect(colorInputValue('', '#1d4ed8')).toBe('#1d4ed8')
  expect(colorInputValue(null, '#1d4ed8')).toBe('#1d4ed8')
})
