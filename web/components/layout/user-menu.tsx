// The user menu of the top bar: the profile modal and logout (§2 Main layout).
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useState } from 'react'
import type { Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { endSession } from '../../api/session.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { Button } from '../button.tsx'
import { AccountIcon } from '../icons.tsx'
import { lazyPart } from '../lazy-part.tsx'
import { SplitMenuTrigger } from '../overlay-trigger.tsx'

// The menu and the profile modal (with its forms and two-factor set-up) are chunks of their own: the
// menu's is fetched right after the page's first render, the modal's when the profile is first opened.
const UserMenuPopover = lazyPart(() => import('./user-menu-popover.tsx').then((module) => module.UserMenuPopover))
const ProfileDialog = lazyPart(() => import('./profile-dialog.tsx').then((module) => module.ProfileDialog))

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
  // The modal mounts at its first opening (its chunk is fetched then) and stays, closing as before.
  const [profileOpened, setProfileOpened] = useState(false)
  const userName = user?.name ?? ''
  const onAction = (key: Key) => {
    if (key === 'profile') {
      setProfileOpened(true)
      setProfileOpen(true)
    } else if (key === 'logout') void logout()
  }
  return (
    <>
      <SplitMenuTrigger menu={(trigger) => <UserMenuPopover trigger={trigger} onAction={onAction} />}>
        <Button variant="ghost" icon aria-label={t`Account: ${userName}`}>
          <AccountIcon />
        </Button>
      </SplitMenuTrigger>
      {profileOpened ? <ProfileDialog isOpen={profileOpen} onOpenChange={setProfileOpen} /> : null}
    </>
  )
}
