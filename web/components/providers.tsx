// What every island renders inside: the Lingui catalog, react-aria's locale (its own built-in labels
// and date formats) and the toast region.
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { useAtomValue } from 'jotai'
import { useEffect, type ReactNode } from 'react'
import { I18nProvider as AriaI18nProvider } from 'react-aria-components'
import { languageTags } from '../i18n/languages.ts'
import { languageAtom } from '../state/language.ts'
import { Toasts } from './toasts.tsx'

export function Providers({ children }: { children: ReactNode }) {
  const language = useAtomValue(languageAtom)
  return (
    <I18nProvider i18n={i18n}>
      <AriaI18nProvider locale={languageTags[language]}>
        {children}
        <Toasts />
      </AriaI18nProvider>
    </I18nProvider>
  )
}

/** Sets the tab title, translated, and keeps it in the current language. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Zapdesk`
  }, [title])
}
