// The language picker (§2 /login and the top bar): a menu button listing pt, en and es.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue, useSetAtom } from 'jotai'
import { Button, Menu, MenuItem, MenuTrigger, Popover, type Selection } from 'react-aria-components'
import { isLanguage, languageNames, languages } from '../i18n/languages.ts'
import { changeLanguageAtom, languageAtom } from '../state/language.ts'
import { LanguageIcon } from './icons.tsx'

export function LanguageMenu({ compact = false }: { compact?: boolean }) {
  const { t } = useLingui()
  const language = useAtomValue(languageAtom)
  const changeLanguage = useSetAtom(changeLanguageAtom)
  const languageName = languageNames[language]
  const onSelectionChange = (selection: Selection) => {
    const [picked] = selection === 'all' ? [] : [...selection]
    if (isLanguage(picked)) void changeLanguage(picked)
  }
  return (
    <MenuTrigger>
      <Button className={compact ? 'button button-ghost button-icon' : 'button button-ghost'} aria-label={t`Language: ${languageName}`}>
        <LanguageIcon />
        {compact ? null : <span>{languageName}</span>}
      </Button>
      <Popover className="popover" placement="bottom end">
        <Menu
          className="menu"
          aria-label={t`Language`}
          selectionMode="single"
          selectedKeys={[language]}
          onSelectionChange={onSelectionChange}
          disallowEmptySelection
        >
          {languages.map((code) => (
            <MenuItem key={code} id={code} className="menu-item" lang={code}>
              {languageNames[code]}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  )
}
