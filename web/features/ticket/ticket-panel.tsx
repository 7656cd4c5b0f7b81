// The open ticket (§2 Tickets): its header with the actions, the messages, the input, and the contact
// drawer at the right. Loaded by uuid and kept live (use-ticket.ts).
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { lazyPart } from '../../components/lazy-part.tsx'
import { MessageInput } from '../chat/message-input.tsx'
import { MessagesList } from '../chat/messages-list.tsx'
import { TicketHeader } from './ticket-header.tsx'
import { useTicket } from './use-ticket.ts'
import '../../styles/ticket.css'

// Opened on demand: the drawer, with the contact form and the notes, is fetched on the press that opens it.
const ContactDrawer = lazyPart(() => import('./contact-drawer.tsx').then((module) => module.ContactDrawer))

export function TicketPanel({ uuid }: { uuid: string }) {
  const { t } = useLingui()
  const open = useTicket(uuid)
  const [drawerOpen, setDrawerOpen] = useState(false)
  const { ticket, setTicket } = open

  if (!ticket) {
    return (
      <div className="ticket-panel ticket-panel-loading" role="status" data-uuid={uuid}>
        {t`Loading the ticket…`}
      </div>
    )
  }
  return (
    <div className={`ticket-panel${drawerOpen ? ' ticket-panel-with-drawer' : ''}`} data-uuid={uuid} data-status={ticket.status}>
      <div className="ticket-main">
        <TicketHeader ticket={ticket} open={open} drawerOpen={drawerOpen} onToggleDrawer={() => setDrawerOpen((isOpen) => !isOpen)} />
        <div className="ticket-messages">
          <MessagesList ticket={ticket} />
        </div>
        <MessageInput ticket={ticket} />
      </div>
      {drawerOpen ? (
        <ContactDrawer
          ticket={ticket}
          onClose={() => {
            setDrawerOpen(false)
            // Focus goes back to the button that opened the drawer, not to the page's start.
            document.querySelector<HTMLElement>('[aria-controls="ticket-contact-drawer"]')?.focus()
          }}
          onContactSaved={(contact) =>
            setTicket({ ...ticket, contact: { id: contact.id, name: contact.name, number: contact.number, profilePicUrl: contact.profilePicUrl } })
          }
        />
      ) : null}
    </div>
  )
}
