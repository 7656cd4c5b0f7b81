// The top bar (§2 Main layout): menu button, greeting (with the due date for admins), language,
// theme, volume, page refresh, the ticket notification bell, announcements, internal chats and the user menu.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { formatCalendarDate } from '../../i18n/format.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { Button } from '../button.tsx'
import { MenuIcon, RefreshIcon } from '../icons.tsx'
import { LanguageMenu } from '../language-menu.tsx'
import { ThemeToggle } from './theme-toggle.tsx'
import { UserMenu } from './user-menu.tsx'
import { VolumeControl } from './volume-control.tsx'
import { NotificationsBell } from '../../features/notifications/notifications-bell.tsx'
import { CampaignAlerts } from '../../features/campaigns/campaign-alerts.tsx'
import { AnnouncementsPopover } from '../../features/announcements/announcements-popover.tsx'
import { InternalChatsPopover } from '../../features/internal-chat/chats-popover.tsx'
import '../../styles/notifications.css'

export type TopBarProps = { menuOpen: boolean; onToggleMenu: () => void; drawerId: string }

function Greeting() {
  const { t } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  if (!user) return null
  const userName = user.name
  const companyName = user.company.name
  const dueDate = user.profile === 'admin' && user.company.dueDate ? formatCalendarDate(user.company.dueDate) : null
  return (
    <p className="topbar-greeting">
      <span>{t`Hello ${userName}, welcome to ${companyName}!`}</span>
      {dueDate ? <span className="topbar-due"> {t`(Active until ${dueDate})`}</span> : null}
    </p>
  )
}

export function TopBar({ menuOpen, onToggleMenu, drawerId }: TopBarProps) {
  const { t } = useLingui()
  return (
    <header className="topbar">
      <Button variant="ghost" icon aria-label={menuOpen ? t`Close menu` : t`Open menu`} aria-expanded={menuOpen} aria-controls={drawerId} onPress={onToggleMenu}>
        <MenuIcon />
      </Button>
      <Greeting />
      <div className="topbar-actions">
        <LanguageMenu compact />
        <ThemeToggle />
        <VolumeControl />
        <Button variant="ghost" icon aria-label={t`Refresh page`} onPress={() => location.reload()}>
          <RefreshIcon />
        </Button>
        <NotificationsBell />
        <CampaignAlerts />
        <AnnouncementsPopover />
        <InternalChatsPopover />
        <UserMenu />
      </div>
    </header>
  )
}
