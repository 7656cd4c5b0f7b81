// The announcements and internal-chat popovers of the top bar (§2 Main layout). Announcements and the
// internal chat are later features; until their servers exist the popovers say there is nothing yet.
import { useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Dialog, DialogTrigger, Heading, Popover } from 'react-aria-components'
import { Button } from '../../components/button.tsx'
import { AnnouncementIcon, ChatIcon } from '../../components/icons.tsx'

function FeedPopover({ label, icon, emptyText, id }: { label: string; icon: ReactNode; emptyText: string; id: string }) {
  return (
    <DialogTrigger>
      <Button variant="ghost" icon aria-label={label}>
        {icon}
      </Button>
      <Popover className="popover notifications-popover" placement="bottom end">
        <Dialog className="popover-dialog" aria-labelledby={id}>
          <Heading id={id} className="popover-heading">
            {label}
          </Heading>
          <p className="popover-empty">{emptyText}</p>
        </Dialog>
      </Popover>
    </DialogTrigger>
  )
}

export function AnnouncementsPopover() {
  const { t } = useLingui()
  return <FeedPopover id="announcements-heading" label={t`Announcements`} icon={<AnnouncementIcon />} emptyText={t`No announcements.`} />
}

export function InternalChatsPopover() {
  const { t } = useLingui()
  return <FeedPopover id="internal-chats-heading" label={t`Internal chats`} icon={<ChatIcon />} emptyText={t`No conversations.`} />
}
