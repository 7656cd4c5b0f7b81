// The language picker (§2 /login and the top bar): a menu button listing pt, en and es. The menu itself
// (language-menu-popover.tsx) is a chunk of its own, fetched right after the page's first render
// (overlay-trigger.tsx).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { Button } from 'react-aria-components'
import { languageNames } from '../i18n/languages.ts'
import { languageAtom } from '../state/language.ts'
import { LanguageIcon } from './icons.tsx'
import { lazyPart } from './lazy-part.tsx'
import { SplitMenuTrigger } from './overlay-trigger.tsx'

const LanguageMenuPopover = lazyPart(() => import('./language-menu-popover.tsx').then((module) => module.LanguageMenuPopover))

export function LanguageMenu({ compact = false }: { compact?: boolean }) {
  const { t } = useLingui()
  const language = useAtomValue(languageAtom)
  const languageName = languageNames[language]
  return (
    <SplitMenuTrigger menu={(trigger) => <LanguageMenuPopover trigger={trigger} />}>
      <Button className={compact ? 'button button-ghost button-icon' : 'button button-ghost'} aria-label={t`Language: ${languageName}`}>
        <LanguageIcon />
        {compact ? null : <span>{languageName}</span>}
      </Button>
    </SplitMenuTrigger>
  )
}
