// The user menu's popover (user-menu.tsx), in a chunk of its own.
import { useLingui } from '@lingui/react/macro'
import { Menu, MenuItem, Popover, type Key } from 'react-aria-components'
import { AccountIcon, LogoutIcon } from '../icons.tsx'
import { MenuTriggerContexts } from '../overlay-contexts.tsx'
import type { MenuTriggerHandle } from '../overlay-trigger.tsx'

export function UserMenuPopover({ trigger, onAction }: { trigger: MenuTriggerHandle; onAction: (key: Key) => void }) {
  const { t } = useLingui()
  return (
    <MenuTriggerContexts trigger={trigger}>
      <Popover className="popover" placement="bottom end">
        <Menu className="menu" aria-label={t`Account`} onAction={onAction}>
          <MenuItem id="profile" className="menu-item">
            <AccountIcon />
            {t`Profile`}
          </MenuItem>
          <MenuItem id="logout" className="menu-item">
            <LogoutIcon />
            {t`Log out`}
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTriggerContexts>
  )
}
