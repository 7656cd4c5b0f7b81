// The new-ticket modal (§2 Tickets, §6, §8): a contact found by autocomplete (from 3 characters) or
// created on the spot, a queue (the user's own; admins choose among all, or none), a connection with
// its status. ERR_OTHER_OPEN_TICKET: the user's own conversation opens; another user's is named with
// its queue.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useMemo, useState, type FormEvent } from 'react'
import type { Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { ContactPicker, type ContactChoice } from '../../components/contact-picker.tsx'
import { Select } from '../../components/select.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { sessionUserAtom } from '../../state/session.ts'
import { otherOpenTicketOf } from './other-open-ticket.ts'
import { useTicketChoices } from './use-ticket-choices.ts'
import { normalizeTicket, type ListTicket } from './ticket-lists.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'
import { toastFailure } from '../../components/failure-toast.ts'

const NO_QUEUE = 'none'

export type NewTicketModalProps = {
  onClose: () => void
  /** The ticket to show: the new one, or the user's own conversation that already existed. */
  onOpen: (ticket: { uuid: string; created?: ListTicket }) => void
}

export function NewTicketModal({ onClose, onOpen }: NewTicketModalProps) {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const admin = isAdmin(user)

  const [search, setSearch] = useState('')
  const [contact, setContact] = useState<ContactChoice | null>(null)
  const [creatingContact, setCreatingContact] = useState(false)
  const [newName, setNewName] = useState('')
  const [newNumber, setNewNumber] = useState('')
  const [savingContact, setSavingContact] = useState(false)

  const { queues, connections, connectionKey, setConnectionKey } = useTicketChoices(admin)
  const [queueKey, setQueueKey] = useState<Key | null>(null)
  const [contactError, setContactError] = useState<string | undefined>()
  const [notice, setNotice] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)


  const queueOptions = useMemo(
    () => [...(admin ? [{ id: NO_QUEUE, label: t`No queue` }] : []), ...queues.map((queue) => ({ id: queue.id, label: queue.name }))],
    [admin, queues, t],
  )
  const statusLabel = (status: string) => {
    switch (status) {
      case 'CONNECTED':
        return t`connected`
      case 'qrcode':
        return t`waiting for QR code`
      case 'OPENING':
        return t`connecting`
      case 'PAIRING':
        return t`pairing`
      case 'TIMEOUT':
        return t`timed out`
      default:
        return t`disconnected`
    }
  }
  const connectionOptions = connections.map((connection) => ({ id: connection.id, label: `${connection.name} (${statusLabel(connection.status)})` }))

  const saveContact = async () => {
    if (newName.trim().length < 2 || newNumber.replace(/\D/g, '').length < 8) {
      showToast('warning', t`Enter the contact's name and number.`)
      return
    }
    setSavingContact(true)
    const { data, error } = await api.contacts.post({ name: newName.trim(), number: newNumber.trim() })
    setSavingContact(false)
    if (error || !data) {
      toastFailure(i18n, error)
      return
    }
    const created = { id: data.id, name: data.name, number: data.number }
    setContact(created)
    setCreatingContact(false)
    setContactError(undefined)
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setNotice(null)
    if (!contact) {
      setContactError(t`Choose a contact.`)
      return
    }
    const queueId = queueKey === null || queueKey === NO_QUEUE ? null : Number(queueKey)
    if (!admin && queueId === null) {
      showToast('warning', t`Select a queue`)
      return
    }
    if (!user) return
    setSubmitting(true)
    const { data, error } = await api.tickets.post({
      contactId: contact.id,
      queueId,
      whatsappId: connectionKey === null ? null : Number(connectionKey),
      userId: user.id,
      status: 'open',
    })
    setSubmitting(false)
    if (data) {
      onOpen({ uuid: data.uuid, created: normalizeTicket(data) })
      return
    }
    const other = otherOpenTicketOf(error)
    if (other && other.userId === user.id) {
      onOpen({ uuid: other.uuid })
      return
    }
    if (other) {
      const userName = other.userName ?? t`no one`
      const queueName = other.queueName ?? t`no queue`
      setNotice(t`This contact already has an open ticket with ${userName} in the queue ${queueName}.`)
      return
    }
    toastFailure(i18n, error)
  }

  return (
    <Dialog title={t`New ticket`} isOpen onOpenChange={(open) => (open ? undefined : onClose())}>
      <form className="new-ticket-form" onSubmit={(event) => void submit(event)} noValidate>
        {creatingContact ? (
          <fieldset className="new-ticket-contact">
            <legend>{t`New contact`}</legend>
            <TextField label={t`Name`} value={newName} onChange={setNewName} autoFocus />
            <TextField label={t`Number`} value={newNumber} onChange={setNewNumber} inputMode="tel" description={t`With country and area code, for example 5511987654321.`} />
            <div className="new-ticket-inline-actions">
              <Button variant="secondary" onPress={() => setCreatingContact(false)}>
                {t`Cancel`}
              </Button>
              <Button variant="primary" isDisabled={savingContact} onPress={() => void saveContact()}>
                {t`Save contact`}
              </Button>
            </div>
          </fieldset>
        ) : (
          <ContactPicker
            value={contact}
            onChange={(chosen) => {
              setContact(chosen)
              if (chosen) setContactError(undefined)
            }}
            onSearchChange={setSearch}
            error={contactError}
            autoFocus
          />
        )}
        {!creatingContact ? (
          <Button
            variant="ghost"
            className="new-ticket-add-contact"
            onPress={() => {
              setCreatingContact(true)
              if (/^\D*\d[\d\s()+-]*$/.test(search)) setNewNumber(search)
              else setNewName(search)
            }}
          >
            {t`Add a new contact`}
          </Button>
        ) : null}
        <Select label={t`Queue`} options={queueOptions} value={queueKey} onChange={setQueueKey} placeholder={t`Select a queue`} isRequired={!admin} />
        <Select label={t`Connection`} options={connectionOptions} value={connectionKey} onChange={setConnectionKey} placeholder={t`Default connection`} />
        {notice ? (
          <p className="new-ticket-notice" role="alert">
            {notice}
          </p>
        ) : null}
        <div className="dialog-actions">
          <Button variant="secondary" onPress={onClose}>
            {t`Cancel`}
          </Button>
          <Button variant="primary" type="submit" isDisabled={submitting || creatingContact}>
            {t`Create ticket`}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}

