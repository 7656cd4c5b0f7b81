// Notes about the contact (§2 contact drawer, §5 Ticket note, §8 note toasts): the list, newest first,
// a new note of at least 2 characters, and delete for its author or an admin after a confirmation.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { FieldError, Form, Label, TextArea, TextField } from 'react-aria-components'
import type { TicketNote } from '../../../src/modules/ticket-notes/model.ts'
import type { TicketView } from '../../../src/modules/tickets/model.ts'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { showToast } from '../../components/toasts.tsx'
import { sessionUserAtom } from '../../state/session.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { TrashIcon } from '../../components/icons.tsx'
import { formatDateTime } from './date-time.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export const NOTE_MIN_LENGTH = 2

export function TicketNotes({ ticket }: { ticket: TicketView }) {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const admin = isAdmin(user)
  const [notes, setNotes] = useState<TicketNote[] | null>(null)
  const [text, setText] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)
  const [deleting, setDeleting] = useState<TicketNote | null>(null)
  const ticketId = ticket.id
  const contactId = ticket.contactId

  const load = useCallback(async () => {
    try {
      const { data, error: failure } = await api['ticket-notes'].list.get({ query: { ticketId, contactId } })
      if (data) setNotes(data)
      else toastFailure(i18n, failure)
    } catch (failure) {
      toastFailure(i18n, failure)
    }
  }, [ticketId, contactId, i18n])

  useEffect(() => {
    void load()
  }, [load])

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const note = text.trim()
    if (note.length < NOTE_MIN_LENGTH) {
      setError(t`Write at least 2 characters.`)
      return
    }
    setError(undefined)
    setPending(true)
    try {
      const { data, error: failure } = await api['ticket-notes'].post({ note, ticketId, contactId })
      if (!data) {
        toastFailure(i18n, failure)
        return
      }
      setText('')
      showToast('success', t`Note added successfully!`)
      await load()
    } catch (failure) {
      toastFailure(i18n, failure)
    } finally {
      setPending(false)
    }
  }

  const remove = async (note: TicketNote) => {
    try {
      const { error: failure } = await api['ticket-notes']({ id: note.id }).delete()
      if (failure) {
        toastFailure(i18n, failure)
        return
      }
      showToast('success', t`Note deleted successfully!`)
      setNotes((current) => current?.filter((other) => other.id !== note.id) ?? null)
    } catch (failure) {
      toastFailure(i18n, failure)
    }
  }

  return (
    <section className="contact-section" aria-labelledby="ticket-notes-heading">
      <h3 id="ticket-notes-heading" className="contact-section-title">
        {t`Notes`}
      </h3>
      <Form className="ticket-note-form" onSubmit={add} validationBehavior="aria">
        <TextField className="field" value={text} onChange={setText} isInvalid={Boolean(error)} name="note">
          <Label className="field-label">{t`New note`}</Label>
          <TextArea className="ticket-textarea" rows={3} />
          <FieldError className="field-error">{error}</FieldError>
        </TextField>
        <Button type="submit" isPending={pending}>
          {t`Add note`}
        </Button>
      </Form>
      {notes === null ? (
        <p className="ticket-muted" role="status">
          {t`Loading…`}
        </p>
      ) : notes.length === 0 ? (
        <p className="ticket-muted">{t`No notes yet.`}</p>
      ) : (
        <ul className="ticket-note-list" aria-label={t`Notes`}>
          {notes.map((note) => {
            const author = note.user?.name ?? t`Removed user`
            const when = formatDateTime(note.createdAt)
            return (
              <li key={note.id} className="ticket-note">
                <p className="ticket-note-text">{note.note}</p>
                <div className="ticket-note-meta">
                  <span>
                    {author} · <time dateTime={new Date(note.createdAt).toISOString()}>{when}</time>
                  </span>
                  {note.userId === user?.id || admin ? (
                    <Button variant="ghost" icon aria-label={t`Delete note by ${author} of ${when}`} onPress={() => setDeleting(note)}>
                      <TrashIcon />
                    </Button>
                  ) : null}
                </div>
              </li>
            )
          })}
        </ul>
      )}
      <ConfirmDialog
        title={t`Delete note`}
        confirmLabel={t`Delete`}
        isOpen={deleting !== null}
        onOpenChange={(isOpen) => !isOpen && setDeleting(null)}
        onConfirm={async () => {
          if (deleting) await remove(deleting)
          return true
        }}
      >
        <p className="confirm-text">{t`Do you really want to delete this record?`}</p>
      </ConfirmDialog>
    </section>
  )
}
