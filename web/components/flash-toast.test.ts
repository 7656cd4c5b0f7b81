// A flashed toast is for the next page. The page that flashes it is leaving, but its own toast region
// is a lazy chunk: on a slow machine it can mount after the sign-in answered, and it must not take the
// toast then (CI lost the login's "subscription expired" warning that way).
import { afterAll, beforeEach, expect, test } from 'bun:test'
import { flashToast, takeFlashToast } from './toasts.tsx'

const stored = new Map<string, string>()
Object.assign(globalThis, {
  sessionStorage: {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
  },
})
afterAll(() => Reflect.deleteProperty(globalThis, 'sessionStorage'))
beforeEach(() => stored.clear())

test('the page that flashed a toast leaves it for the next page', () => {
  flashToast('warning', 'Your subscription expired on 27/10/2026.')
  expect(takeFlashToast()).toBeUndefined()
  expect(stored.size).toBe(1)

  // The next page (another document, so another page id) takes it once.
  const flashed = JSON.parse(stored.get('flashToast')!) as Record<string, unknown>
  stored.set('flashToast', JSON.stringify({ ...flashed, from: 'the-login-page' }))
  expect(takeFlashToast()).toEqual({ kind: 'warning', text: 'Your subscription expired on 27/10/2026.', link: undefined })
  expect(takeFlashToast()).toBeUndefined()
})

test('a stored value that is not a toast is dropped, not read on every page', () => {
  stored.set('flashToast', '{not json')
  expect(takeFlashToast()).toBeUndefined()
  expect(stored.size).toBe(0)
  stored.set('flashToast', JSON.stringify({ kind: 'shout', text: 'x', from: 'elsewhere' }))
  expect(takeFlashToast()).toBeUndefined()
  expect(stored.size).toBe(0)
})
