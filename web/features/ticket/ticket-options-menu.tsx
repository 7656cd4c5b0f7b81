// The ticket options menu (§2, §6): schedule a message (when the plan has useSchedules), the tags
// editor, and delete for admins.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { lazy, Suspense, useState } from 'react'
import type { Key } from 'react-aria-components'
import type { TicketView } from '../../../src/modules/tickets/model.ts'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { MoreIcon, ScheduleIcon, TagIcon, TrashIcon } from '../../components/icons.tsx'
import { planFeaturesAtom, sessionUserAtom } from '../../state/session.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { LazyPopoverMenu } from '../../components/lazy-popover-menu.tsx'
import { SplitMenuTrigger } from '../../components/overlay-trigger.tsx'
import type { OpenTicket } from './use-ticket.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const TagsDialog = lazyPart(() => import('./tags-dialog.tsx').then((module) => module.TagsDialog))

// The schedule dialog (date picker and all) loads on first use, not with the inbox.
const ScheduleDialog = lazy(() => import('../schedules/schedule-dialog.tsx').then((module) => ({ default: module.ScheduleDialog })))

type OptionDialog = 'schedule' | 'tags' | 'delete'

export function TicketOptionsMenu({ ticket, open }: { ticket: TicketView; open: OpenTicket }) {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const admin = isAdmin(user)
  const canSchedule = Boolean(useAtomValue(planFeaturesAtom)?.useSchedules)
  const [dialog, setDialog] = useState<OptionDialog | null>(null)
  const openOrClose = (which: OptionDialog) => (isOpen: boolean) => setDialog(isOpen ? which : null)
  const ticketNumber = ticket.id

  const remove = async () => {
    try {
      const { error } = await open.track(() => api.tickets({ id: ticket.id }).delete())
      if (error) {
        toastFailure(i18n, error)
        return
      }
      open.closeTicket({ kind: 'success', text: t`Ticket deleted.` })
    } catch (failure) {
      toastFailure(i18n, failure)
    }
  }

  return (
    <>
      <SplitMenuTrigger
        menu={(trigger) => (
          <LazyPopoverMenu
            trigger={trigger}
            aria-label={t`Ticket options`}
            onAction={(key: Key) => (key === 'schedule' || key === 'tags' || key === 'delete') && setDialog(key)}
            items={[
              ...(canSchedule ? [{ id: 'schedule', children: <><ScheduleIcon />{t`Schedule message`}</> }] : []),
              { id: 'tags', children: <><TagIcon />{t`Edit tags`}</> },
              ...(admin ? [{ id: 'delete', className: 'menu-item ticket-menu-danger', children: <><TrashIcon />{t`Delete ticket`}</> }] : []),
            ]}
          />
        )}
      >
        <Button variant="ghost" icon aria-label={t`Ticket options`}>
          <MoreIcon />
        </Button>
      </SplitMenuTrigger>
      {dialog === 'schedule' ? (
        <Suspense fallback={null}>
          <ScheduleDialog
            isOpen
            onOpenChange={openOrClose('schedule')}
            contact={{ id: ticket.contact.id, name: ticket.contact.name, number: ticket.contact.number }}
            ticketId={ticket.id}
          />
        </Suspense>
      ) : null}
      <TagsDialog ticket={ticket} onSaved={open.setTicket} isOpen={dialog === 'tags'} onOpenChange={openOrClose('tags')} />
      <ConfirmDialog
        title={t`Delete ticket`}
        confirmLabel={t`Delete`}
        isOpen={dialog === 'delete'}
        onOpenChange={openOrClose('delete')}
        onConfirm={async () => {
          await remove()
          return true
        }}
      >
        <p className="confirm-text">{t`Delete ticket #${ticketNumber} and all its messages? This cannot be undone.`}</p>
      </ConfirmDialog>
    </>
  )
}
