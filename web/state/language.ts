// The interface language: stored as `language`, English unless stored (§1).
import { atom } from 'jotai'
import { activateLanguage } from '../i18n/activate.ts'
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../i18n/languages.ts'
import { readStored, writeStored } from './storage.ts'

export function storedLanguage(): Language {
  const stored = readStored('language')
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE
}

export const languageAtom = atom<Language>(storedLanguage())

/** Loads the catalog first, so the screen never shows a half-switched language. */
export const changeLanguageAtom = atom(null, async (_get, set, language: Language) => {
  await activateLanguage(language)
  writeStored('language', language)
  set(languageAtom, language)
})
