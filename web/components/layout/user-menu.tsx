// The user menu of the top bar: the profile modal and logout (§2 Main layout).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useState } from 'react'
import { Menu, MenuItem, MenuTrigger, Popover, type Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { endSession } from '../../api/session.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { Button } from '../button.tsx'
import { AccountIcon, LogoutIcon } from '../icons.tsx'
import { ProfileDialog } from './profile-dialog.tsx'

export async function logout(): Promise<void> {
  try {
    await api.auth.logout.delete()
  } catch {
    // Offline: the session still ends here; the server's refresh token expires on its own.
  }
  // The server's logout also ends the session on this page's socket, which leaves for /login too:
  // one shared way out, or the second navigation aborts the first (seen as net::ERR_ABORTED).
  endSession()
}

export function UserMenu() {
  const { t } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const [profileOpen, setProfileOpen] = useState(false)
  const userName = user?.name ?? ''
  const onAction = (key: Key) => {
    if (key === 'profile') setProfileOpen(true)
    else if (key === 'logout') void logout()
  }
  return (
    <>
      <MenuTrigger>
        <Button variant="ghost" icon aria-label={t`Account: ${userName}`}>
          <AccountIcon />
        </Button>
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
      </MenuTrigger>
      <ProfileDialog isOpen={profileOpen} onOpenChange={setProfileOpen} />
    </>
  )
}
