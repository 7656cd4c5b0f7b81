// The ticket header: who the contact is, the ticket's number, queue, agent and connection, and what
// can be done with it for its status (§4): accept, return, resolve, reopen, transfer, options.
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { TicketView } from '../../../src/modules/tickets/model.ts'
import { Button } from '../../components/button.tsx'
import { CheckIcon, CloseIcon } from '../../components/icons.tsx'
import { ContactAvatar } from './contact-avatar.tsx'
import { numberForDisplay } from '../../forms/contact-number.ts'
import { ContactCardIcon, ReopenIcon, ReturnIcon, TransferIcon } from './ticket-icons.tsx'
import { TicketOptionsMenu } from './ticket-options-menu.tsx'
import { useTicketRequests } from './ticket-requests.ts'
import { SlaTimer } from '../ticket-list/sla-timer.tsx'
import type { OpenTicket } from './use-ticket.ts'
import { lazyPart } from '../../components/lazy-part.tsx'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const TransferDialog = lazyPart(() => import('./transfer-dialog.tsx').then((module) => module.TransferDialog))

type TicketHeaderProps = {
  ticket: TicketView
  open: OpenTicket
  drawerOpen: boolean
  onToggleDrawer: () => void
}

export function TicketHeader({ ticket, open, drawerOpen, onToggleDrawer }: TicketHeaderProps) {
  const { t } = useLingui()
  const requests = useTicketRequests(open)
  const [transferOpen, setTransferOpen] = useState(false)
  const ticketNumber = ticket.id
  const statusLabels = { open: t`In progress`, pending: t`Waiting`, closed: t`Resolved` }

  return (
    <header className="ticket-header">
      <div className="ticket-header-contact">
        <ContactAvatar name={ticket.contact.name} pictureUrl={ticket.contact.profilePicUrl} size={44} />
        <div className="ticket-header-text">
          <h2 className="ticket-contact-name">{ticket.contact.name}</h2>
          <p className="ticket-header-line">
            <span>{numberForDisplay(ticket.contact.number)}</span>
            <span className="ticket-number">{t`Ticket #${ticketNumber}`}</span>
            <span className={`ticket-status ticket-status-${ticket.status}`}>{statusLabels[ticket.status]}</span>
            <SlaTimer ticket={ticket} className="sla-timer-header" />
          </p>
          <ul className="ticket-chips" aria-label={t`Ticket details`}>
            <li className="ticket-chip" style={{ borderColor: ticket.queue?.color ?? undefined }}>
              <span className="ticket-chip-label">{t`Queue`}:</span> {ticket.queue?.name ?? t`No queue`}
            </li>
            <li className="ticket-chip">
              <span className="ticket-chip-label">{t`User`}:</span> {ticket.user?.name ?? t`Nobody`}
            </li>
            <li className="ticket-chip">
              <span className="ticket-chip-label">{t`Connection`}:</span> {ticket.whatsapp?.name ?? t`None`}
            </li>
            {ticket.status === 'pending' && ticket.handoffReason ? (
              <li className="ticket-chip ticket-chip-handoff">
                <span className="ticket-chip-label">{t`AI hand-off`}:</span> {ticket.handoffReason}
              </li>
            ) : null}
            {ticket.tags.map((tag) => (
              <li key={tag.id} className="ticket-chip ticket-chip-tag" style={{ borderColor: tag.color }}>
                {tag.name}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="ticket-actions" role="toolbar" aria-label={t`Ticket actions`}>
        {ticket.status === 'pending' ? (
          <Button onPress={() => void requests.change('accept', ticket)} isPending={requests.running === 'accept'}>
            <CheckIcon />
            {t`Accept`}
          </Button>
        ) : null}
        {ticket.status === 'open' ? (
          <>
            <Button variant="secondary" onPress={() => void requests.change('return', ticket)} isPending={requests.running === 'return'}>
              <ReturnIcon />
              {t`Return`}
            </Button>
            <Button onPress={() => void requests.change('resolve', ticket)} isPending={requests.running === 'resolve'}>
              <CheckIcon />
              {t`Resolve`}
            </Button>
          </>
        ) : null}
        {ticket.status === 'closed' ? (
          <Button onPress={() => void requests.change('reopen', ticket)} isPending={requests.running === 'reopen'}>
            <ReopenIcon />
            {t`Reopen`}
          </Button>
        ) : (
          <Button variant="ghost" icon aria-label={t`Transfer ticket`} onPress={() => setTransferOpen(true)}>
            <TransferIcon />
          </Button>
        )}
        <Button variant={drawerOpen ? 'secondary' : 'ghost'} icon aria-label={t`Contact details`} aria-expanded={drawerOpen} aria-controls="ticket-contact-drawer" onPress={onToggleDrawer}>
          <ContactCardIcon />
        </Button>
        <TicketOptionsMenu ticket={ticket} open={open} />
        <Button variant="ghost" icon aria-label={t`Close ticket panel`} onPress={open.leave}>
          <CloseIcon />
        </Button>
      </div>
      {transferOpen ? <TransferDialog ticket={ticket} requests={requests} isOpen onOpenChange={setTransferOpen} /> : null}
    </header>
  )
}
