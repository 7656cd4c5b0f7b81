// The contact drawer (§2): the contact's details and extra info, the edit form, and the notes. Beside
// the chat on a wide screen; over it on a narrow one (Escape closes it there too).
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import type { ContactDetail } from '../../../src/modules/contacts/model.ts'
import type { TicketView } from '../../../src/modules/tickets/model.ts'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { CloseIcon } from '../../components/icons.tsx'
import { ContactAvatar } from './contact-avatar.tsx'
import { ContactForm } from '../../forms/contact-form.tsx'
import { numberForDisplay } from '../../forms/contact-number.ts'
import { EditIcon } from './ticket-icons.tsx'
import { TicketNotes } from './ticket-notes.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

type ContactDrawerProps = {
  ticket: TicketView
  onClose: () => void
  /** The contact was saved: the header shows the new name and number at once. */
  onContactSaved: (contact: ContactDetail) => void
}

export function ContactDrawer({ ticket, onClose, onContactSaved }: ContactDrawerProps) {
  const { t, i18n } = useLingui()
  const [contact, setContact] = useState<ContactDetail | null>(null)
  const [editing, setEditing] = useState(false)
  const contactId = ticket.contactId
  // The header's copy changes with the realtime `contact` channel: read the details again then.
  const { name: liveName, number: liveNumber } = ticket.contact

  useEffect(() => {
    let live = true
    api
      .contacts({ id: contactId })
      .get()
      .then(({ data, error }) => {
        if (!live) return
        if (data) setContact(data)
        else toastFailure(i18n, error)
      })
      .catch((failure: unknown) => live && toastFailure(i18n, failure))
    return () => {
      live = false
    }
  }, [contactId, liveName, liveNumber, i18n])

  return (
    <aside
      id="ticket-contact-drawer"
      className="contact-drawer"
      aria-labelledby="contact-drawer-heading"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !editing) onClose()
      }}
    >
      <div className="contact-drawer-bar">
        <h2 id="contact-drawer-heading" className="contact-drawer-title">
          {t`Contact details`}
        </h2>
        <Button variant="ghost" icon aria-label={t`Close contact details`} onPress={onClose}>
          <CloseIcon />
        </Button>
      </div>
      <div className="contact-drawer-body">
        {contact === null ? (
          <p className="ticket-muted" role="status">
            {t`Loading…`}
          </p>
        ) : editing ? (
          <ContactForm
            contact={contact}
            onCancel={() => setEditing(false)}
            onSaved={(saved) => {
              setContact(saved)
              setEditing(false)
              onContactSaved(saved)
            }}
          />
        ) : (
          <>
            <section className="contact-card" aria-label={t`Contact`}>
              <ContactAvatar name={contact.name} pictureUrl={contact.profilePicUrl} size={96} />
              <p className="contact-card-name">{contact.name}</p>
              <dl className="contact-facts">
                <dt>{t`Number`}</dt>
                <dd>{numberForDisplay(contact.number)}</dd>
                <dt>{t`E-mail`}</dt>
                <dd>{contact.email || t`Not informed`}</dd>
              </dl>
              <Button variant="secondary" onPress={() => setEditing(true)}>
                <EditIcon />
                {t`Edit contact`}
              </Button>
            </section>
            <section className="contact-section" aria-labelledby="contact-extra-heading">
              <h3 id="contact-extra-heading" className="contact-section-title">
                {t`Extra information`}
              </h3>
              {contact.extraInfo.length === 0 ? (
                <p className="ticket-muted">{t`No extra information.`}</p>
              ) : (
                <dl className="contact-facts">
                  {contact.extraInfo.map((field) => (
                    <div key={field.id} className="contact-fact">
                      <dt>{field.name}</dt>
                      <dd>{field.value}</dd>
                    </div>
                  ))}
                </dl>
              )}
            </section>
          </>
        )}
        <TicketNotes ticket={ticket} />
      </div>
    </aside>
  )
}
