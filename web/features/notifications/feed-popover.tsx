// The frame of the top bar's announcements and internal-chat popovers (§2 Main layout): an icon button
// with a count badge, opening a popover with a heading and the feed (or a line saying it is empty).
import type { ReactNode } from 'react'
import { Heading } from 'react-aria-components'
import { Button } from '../../components/button.tsx'
import { LazyPopoverDialog } from '../../components/lazy-popover-dialog.tsx'
import { SplitDialogTrigger } from '../../components/overlay-trigger.tsx'

export type FeedPopoverProps = {
  id: string
  label: string
  /** The button's accessible name, with the count when there is one. */
  buttonLabel: string
  icon: ReactNode
  count: number
  emptyText: string
  isEmpty: boolean
  children: ReactNode
}

export function FeedPopover({ id, label, buttonLabel, icon, count, emptyText, isEmpty, children }: FeedPopoverProps) {
  return (
    <SplitDialogTrigger
      popover={(trigger) => (
        <LazyPopoverDialog trigger={trigger} popoverClassName="popover notifications-popover" dialogClassName="popover-dialog" aria-labelledby={id}>
          <Heading id={id} className="popover-heading">
            {label}
          </Heading>
          {isEmpty ? <p className="popover-empty">{emptyText}</p> : children}
        </LazyPopoverDialog>
      )}
    >
      <Button variant="ghost" icon aria-label={buttonLabel} className="bell-button">
        {icon}
        {count > 0 ? (
          <span className="bell-badge" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </Button>
    </SplitDialogTrigger>
  )
}
