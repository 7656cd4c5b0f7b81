// The language menu's popover (language-menu.tsx), in a chunk of its own: menus, collections and
// overlay positioning are not first-load JS.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue, useSetAtom } from 'jotai'
import { Menu, MenuItem, Popover, type Selection } from 'react-aria-components'
import { isLanguage, languageNames, languages } from '../i18n/languages.ts'
import { changeLanguageAtom, languageAtom } from '../state/language.ts'
import { MenuTriggerContexts } from './overlay-contexts.tsx'
import type { MenuTriggerHandle } from './overlay-trigger.tsx'

export function LanguageMenuPopover({ trigger }: { trigger: MenuTriggerHandle }) {
  const { t } = useLingui()
  const language = useAtomValue(languageAtom)
  const changeLanguage = useSetAtom(changeLanguageAtom)
  const onSelectionChange = (selection: Selection) => {
    const [picked] = selection === 'all' ? [] : [...selection]
    if (isLanguage(picked)) void changeLanguage(picked)
  }
  return (
    <MenuTriggerContexts trigger={trigger}>
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
    </MenuTriggerContexts>
  )
}
