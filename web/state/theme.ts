// Light or dark: stored as `preferredTheme`, the system's preference until chosen (§1). The HTML
// shell applies it before the first paint; this keeps the page and the storage in step afterwards.
import { atom } from 'jotai'
import { themeColors, type Theme } from '../styles/theme-colors.ts'
import { readStored, writeStored } from './storage.ts'

export type { Theme }

export function initialTheme(): Theme {
  const stored = readStored('preferredTheme')
  if (stored === 'light' || stored === 'dark') return stored
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme
  document.documentElement.style.colorScheme = theme
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', themeColors[theme])
}

export const themeAtom = atom<Theme>(initialTheme())

export const toggleThemeAtom = atom(null, (get, set) => {
  const next: Theme = get(themeAtom) === 'dark' ? 'light' : 'dark'
  writeStored('preferredTheme', next)
  applyTheme(next)
  set(themeAtom, next)
})
