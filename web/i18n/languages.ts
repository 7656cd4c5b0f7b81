// The interface languages (§1): Portuguese, English, Spanish. English unless a stored choice says otherwise.

export const languages = ['pt', 'en', 'es'] as const
export type Language = (typeof languages)[number]

export const DEFAULT_LANGUAGE: Language = 'en'

/** Each language named in itself, as language pickers conventionally show them. */
export const languageNames: Record<Language, string> = { pt: 'Português', en: 'English', es: 'Español' }

/** BCP 47 tags for dates and numbers (§9: dates dd/MM/yyyy, currency BRL in pt-br). */
export const languageTags: Record<Language, string> = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' }

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value)
}
