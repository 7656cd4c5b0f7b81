// The ticket's tags: tick the company's tags and save; POST /tags/sync replaces the ticket's tags.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { Checkbox, CheckboxGroup, Label } from 'react-aria-components'
import type { TicketView } from '../../../src/modules/tickets/model.ts'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { CheckIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

type Tag = { id: number; name: string; color: string }

type TagsFormProps = { ticket: TicketView; onSaved: (ticket: TicketView) => void; onDone: () => void }

function TagsForm({ ticket, onSaved, onDone }: TagsFormProps) {
  const { t, i18n } = useLingui()
  const [tags, setTags] = useState<Tag[] | null>(null)
  const [selected, setSelected] = useState<string[]>(ticket.tags.map((tag) => String(tag.id)))
  const [pending, setPending] = useState(false)

  useEffect(() => {
    let live = true
    api.tags.list
      .get({ query: {} })
      .then(({ data, error }) => {
        if (!live) return
        if (error || !data) toastFailure(i18n, error)
        setTags(data ?? [])
      })
      .catch((failure: unknown) => live && toastFailure(i18n, failure))
    return () => {
      live = false
    }
  }, [i18n])

  const save = async () => {
    setPending(true)
    try {
      const { data, error } = await api.tags.sync.post({ ticketId: ticket.id, tags: selected.map((id) => ({ id: Number(id) })) })
      if (error || !data) {
        toastFailure(i18n, error)
        return
      }
      onSaved(data)
      showToast('success', t`Tags saved.`)
      onDone()
    } catch (failure) {
      toastFailure(i18n, failure)
    } finally {
      setPending(false)
    }
  }

  if (!tags) {
    return (
      <p className="ticket-muted" role="status">
        {t`Loading…`}
      </p>
    )
  }
  return (
    <div className="form">
      {tags.length === 0 ? (
        <p className="ticket-muted">{t`The company has no tags yet.`}</p>
      ) : (
        <CheckboxGroup className="ticket-tag-choices" value={selected} onChange={setSelected}>
          <Label className="field-label">{t`Tags of this ticket`}</Label>
          {tags.map((tag) => (
            <Checkbox key={tag.id} value={String(tag.id)} className="ticket-tag-choice">
              <span className="ticket-checkbox" aria-hidden="true">
                <CheckIcon />
              </span>
              <span className="ticket-tag-dot" style={{ background: tag.color }} aria-hidden="true" />
              {tag.name}
            </Checkbox>
          ))}
        </CheckboxGroup>
      )}
      <div className="dialog-actions">
        <Button variant="secondary" onPress={onDone}>
          {t`Cancel`}
        </Button>
        <Button onPress={() => void save()} isPending={pending} isDisabled={tags.length === 0}>
          {t`Save`}
        </Button>
      </div>
    </div>
  )
}

export function TagsDialog({ isOpen, onOpenChange, ...props }: Omit<TagsFormProps, 'onDone'> & { isOpen: boolean; onOpenChange: (isOpen: boolean) => void }) {
  const { t } = useLingui()
  return (
    <Dialog title={t`Ticket tags`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <TagsForm {...props} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
