// The contact modal of the contacts page: the shared contact form (web/forms/contact-form.tsx), empty to
// add, or filled with the contact's details (GET /contacts/{id}, with its extra info) to edit.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import type { ContactDetail } from '../../../src/modules/contacts/model.ts'
import { api } from '../../api/client.ts'
import { Dialog } from '../../components/dialog.tsx'
import { ContactForm } from '../../forms/contact-form.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

export type ContactDialogProps = {
  /** null: a new contact; a number: the contact to edit. */
  contactId: number | null
  onClose: () => void
  onSaved: (contact: ContactDetail) => void
}

export function ContactDialog({ contactId, onClose, onSaved }: ContactDialogProps) {
  const { t, i18n } = useLingui()
  const [contact, setContact] = useState<ContactDetail | null>(null)

  useEffect(() => {
    if (contactId === null) return
    let live = true
    api
      .contacts({ id: contactId })
      .get()
      .then(({ data, error }) => {
        if (!live) return
        if (data) setContact(data)
        else {
          toastFailure(i18n, error)
          onClose()
        }
      })
      .catch((failure: unknown) => {
        if (!live) return
        toastFailure(i18n, failure)
        onClose()
      })
    return () => {
      live = false
    }
    // onClose is a fresh closure per render; the contact to load is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [contactId, i18n])

  const editing = contactId !== null
  return (
    <Dialog title={editing ? t`Edit contact` : t`New contact`} isOpen onOpenChange={(open) => (open ? undefined : onClose())} size="large">
      {editing && contact === null ? (
        <p className="muted-note" role="status">
          {t`Loading…`}
        </p>
      ) : (
        <ContactForm contact={contact ?? undefined} onCancel={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  )
}
