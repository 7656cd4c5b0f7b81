// §1 light/dark toggle, stored as preferredTheme.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue, useSetAtom } from 'jotai'
import { ToggleButton } from '../toggle-button.tsx'
import { themeAtom, toggleThemeAtom } from '../../state/theme.ts'
import { MoonIcon, SunIcon } from '../icons.tsx'

export function ThemeToggle() {
  const { t } = useLingui()
  const theme = useAtomValue(themeAtom)
  const toggle = useSetAtom(toggleThemeAtom)
  return (
    <ToggleButton className="button button-ghost button-icon" isSelected={theme === 'dark'} onChange={() => toggle()} aria-label={t`Dark mode`}>
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </ToggleButton>
  )
}
