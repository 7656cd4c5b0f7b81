// The transfer modal (§2 Tickets, §5 Transfer): a connection (required), a queue, and a user among
// that queue's agents. No user leaves the ticket waiting (pending) in the queue; a user opens it for him.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useMemo, useState, type FormEvent } from 'react'
import { Form, type Key } from 'react-aria-components'
import type { TicketView } from '../../../src/modules/tickets/model.ts'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { Select } from '../../components/select.tsx'
import { showToast } from '../../components/toasts.tsx'
import { sessionUserAtom } from '../../state/session.ts'
import type { useTicketRequests } from './ticket-requests.ts'
import { toastFailure } from '../../components/failure-toast.ts'

type Named = { id: number; name: string }
type UserChoice = Named & { queueIds: number[] }
type Choices = { connections: Named[]; queues: Named[]; users: UserChoice[] }

/** The key of "no queue" / "no user" in the selects (ids start at 1). */
const NONE = 0

async function loadUsers(): Promise<UserChoice[]> {
  const { data, error } = await api.users.list.get({ query: {} })
  if (error || !data) throw error
  return data.map((user) => ({ id: user.id, name: user.name, queueIds: user.queueIds }))
}

async function loadChoices(): Promise<Choices> {
  const [connections, queues, users] = await Promise.all([api.whatsapp.get({ query: {} }), api.queue.get({ query: {} }), loadUsers()])
  if (connections.error || !connections.data) throw connections.error
  if (queues.error || !queues.data) throw queues.error
  return {
    connections: connections.data.map(({ id, name }) => ({ id, name })),
    queues: queues.data.map(({ id, name }) => ({ id, name })),
    users,
  }
}

type TransferFormProps = {
  ticket: TicketView
  requests: ReturnType<typeof useTicketRequests>
  onDone: () => void
}

function TransferForm({ ticket, requests, onDone }: TransferFormProps) {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const [choices, setChoices] = useState<Choices | null>(null)
  const [connectionId, setConnectionId] = useState<number | null>(ticket.whatsappId)
  const [queueId, setQueueId] = useState<number>(ticket.queueId ?? NONE)
  const [userId, setUserId] = useState<number>(NONE)
  const [connectionError, setConnectionError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)

  useEffect(() => {
    let live = true
    loadChoices()
      .then((loaded) => live && setChoices(loaded))
      .catch((failure: unknown) => {
        if (!live) return
        toastFailure(i18n, failure)
        setChoices({ connections: [], queues: [], users: [] })
      })
    return () => {
      live = false
    }
  }, [i18n])

  const userOptions = useMemo(() => {
    const users = (choices?.users ?? []).filter((choice) => queueId === NONE || choice.queueIds.includes(queueId))
    return [{ id: NONE, label: t`No user (waits in the queue)` }, ...users.map((choice) => ({ id: choice.id, label: choice.name }))]
  }, [choices, queueId, t])

  const chooseQueue = (key: Key | null) => {
    const next = typeof key === 'number' ? key : NONE
    setQueueId(next)
    // A user outside the new queue would no longer be offered: clear him.
    const chosen = choices?.users.find((choice) => choice.id === userId)
    if (chosen?.queueIds && next !== NONE && !chosen.queueIds.includes(next)) setUserId(NONE)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (connectionId === null) {
      setConnectionError(t`Select a connection.`)
      return
    }
    setConnectionError(undefined)
    setPending(true)
    const saved = await requests.update(ticket, { whatsappId: connectionId, queueId: queueId === NONE ? null : queueId, userId: userId === NONE ? null : userId })
    setPending(false)
    if (!saved) return
    showToast('success', t`Ticket transferred.`)
    onDone()
  }

  if (!choices) {
    return (
      <p className="ticket-muted" role="status">
        {t`Loading…`}
      </p>
    )
  }
  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <Select
        label={t`Connection`}
        name="whatsappId"
        options={choices.connections.map((connection) => ({ id: connection.id, label: connection.name }))}
        value={connectionId}
        onChange={(key) => {
          setConnectionId(typeof key === 'number' ? key : null)
          setConnectionError(undefined)
        }}
        placeholder={t`Select a connection`}
        error={connectionError}
        isRequired
      />
      <Select
        label={t`Queue`}
        name="queueId"
        options={[{ id: NONE, label: t`No queue` }, ...choices.queues.map((queue) => ({ id: queue.id, label: queue.name }))]}
        value={queueId}
        onChange={chooseQueue}
      />
      <Select label={t`User`} name="userId" options={userOptions} value={userId} onChange={(key) => setUserId(typeof key === 'number' ? key : NONE)} />
      <div className="dialog-actions">
        <Button variant="secondary" onPress={onDone}>
          {t`Cancel`}
        </Button>
        <Button type="submit" isPending={pending}>
          {t`Transfer`}
        </Button>
      </div>
    </Form>
  )
}

export function TransferDialog({ isOpen, onOpenChange, ...props }: Omit<TransferFormProps, 'onDone'> & { isOpen: boolean; onOpenChange: (isOpen: boolean) => void }) {
  const { t } = useLingui()
  return (
    <Dialog title={t`Transfer ticket`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <TransferForm {...props} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
