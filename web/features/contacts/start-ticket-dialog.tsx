// Start a ticket with a contact from the contacts page (the new-ticket flow of §2 with the contact
// already chosen): a queue (the user's own; admins may leave it empty, §5 New ticket) and a connection
// (the user's default, else the company's), then POST /tickets and on to /tickets/{uuid}.
// ERR_OTHER_OPEN_TICKET (§8): the user's own conversation opens; another user's is named with its queue.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useMemo, useState, type FormEvent } from 'react'
import type { Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { Select } from '../../components/select.tsx'
import { numberForDisplay } from '../../forms/contact-number.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { otherOpenTicketOf } from '../ticket-list/other-open-ticket.ts'
import { useTicketChoices } from '../ticket-list/use-ticket-choices.ts'
import type { ContactRow } from './contact-row.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'
import { toastFailure } from '../../components/failure-toast.ts'

const NO_QUEUE = 'none'

type Option = { id: number; name: string }

export function StartTicketDialog({ contact, onClose }: { contact: ContactRow; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const admin = isAdmin(user)
  const ownQueues = useMemo<Option[]>(() => (user?.queues ?? []).map((queue) => ({ id: queue.id, name: queue.name })), [user?.queues])
  const { queues, connections, connectionKey, setConnectionKey } = useTicketChoices(admin)
  const [queueKey, setQueueKey] = useState<Key | null>(admin ? NO_QUEUE : ownQueues.length === 1 ? ownQueues[0]!.id : null)
  const [queueError, setQueueError] = useState<string | undefined>()
  const [notice, setNotice] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)


  const queueOptions = [...(admin ? [{ id: NO_QUEUE, label: t`No queue` }] : []), ...queues.map((queue) => ({ id: queue.id, label: queue.name }))]
  const connectionOptions = connections.map((connection) => ({
    id: connection.id,
    label: connection.status === 'CONNECTED' ? connection.name : `${connection.name} (${t`not connected`})`,
  }))

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setNotice(null)
    const queueId = queueKey === null || queueKey === NO_QUEUE ? null : Number(queueKey)
    if (!admin && queueId === null) {
      setQueueError(t`Select a queue`)
      return
    }
    if (!user) return
    setSubmitting(true)
    try {
      const { data, error } = await api.tickets.post({
        contactId: contact.id,
        queueId,
        whatsappId: connectionKey === null ? null : Number(connectionKey),
        userId: user.id,
        status: 'open',
      })
      if (data) {
        location.assign(`/tickets/${data.uuid}`)
        return
      }
      const other = otherOpenTicketOf(error)
      if (other && other.userId === user.id) {
        location.assign(`/tickets/${other.uuid}`)
        return
      }
      if (other) {
        const userName = other.userName ?? t`no one`
        const queueName = other.queueName ?? t`no queue`
        setNotice(t`This contact already has an open ticket with ${userName} in the queue ${queueName}.`)
        return
      }
      toastFailure(i18n, error)
    } catch (failure) {
      toastFailure(i18n, failure)
    } finally {
      setSubmitting(false)
    }
  }

  const name = contact.name
  const number = numberForDisplay(contact.number)
  return (
    <Dialog title={t`Start a ticket`} isOpen onOpenChange={(open) => (open ? undefined : onClose())}>
      <form className="form contacts-start-ticket" onSubmit={(event) => void submit(event)} noValidate>
        <p className="contacts-start-contact">
          <strong>{name}</strong> <span className="muted-note">{number}</span>
        </p>
        <Select
          label={t`Queue`}
          options={queueOptions}
          value={queueKey}
          onChange={(key) => {
            setQueueKey(key)
            setQueueError(undefined)
          }}
          placeholder={t`Select a queue`}
          isRequired={!admin}
          error={queueError}
        />
        <Select label={t`Connection`} options={connectionOptions} value={connectionKey} onChange={setConnectionKey} placeholder={t`Default connection`} />
        {notice ? (
          <p className="form-alert" role="alert">
            {notice}
          </p>
        ) : null}
        <div className="dialog-actions">
          <Button variant="secondary" onPress={onClose}>
            {t`Cancel`}
          </Button>
          <Button type="submit" isPending={submitting}>
            {t`Start ticket`}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
