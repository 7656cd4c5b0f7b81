// Loads a language's compiled catalog (its own chunk, preloaded by the HTML shell for the stored
// language) and activates it. Missing messages were filled from pt when the catalogs were compiled.
import { i18n } from '@lingui/core'
import type { Messages } from '@lingui/core'
import { languageTags, type Language } from './languages.ts'

const catalogs: Record<Language, () => Promise<{ messages: Messages }>> = {
  pt: () => import('./locales/pt/messages.ts'),
  en: () => import('./locales/en/messages.ts'),
  es: () => import('./locales/es/messages.ts'),
}

export async function activateLanguage(language: Language): Promise<void> {
  if (i18n.locale === language) return
  const { messages } = await catalogs[language]()
  i18n.loadAndActivate({ locale: language, locales: languageTags[language], messages })
  document.documentElement.lang = language
}
