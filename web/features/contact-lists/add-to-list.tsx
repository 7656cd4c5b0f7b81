// Adding contacts picked in /contacts to a contact list (issue 12: "a list from contacts selected in
// /contacts"): a checkbox column for the contacts table, and the button and dialog that send the
// picked ids to POST /contact-lists/{id}/contacts, into an existing list or a new one.
import { plural } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type FormEvent } from 'react'
import { Form, type Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import type { AdminColumn } from '../../components/data-table.tsx'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { ListIcon } from '../../components/icons.tsx'
import { Select } from '../../components/select.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { lengthBetween } from '../../forms/validation.ts'
import { errorMessage } from '../../i18n/error-messages.ts'

/** The first column of the contacts table: a checkbox per contact, named by the contact. */
export function selectionColumn<Row extends { id: number; name: string }>(label: string, labelOf: (row: Row) => string, selected: ReadonlySet<number>, toggle: (id: number) => void): AdminColumn<Row> {
  return {
    id: 'select',
    header: () => <span className="visually-hidden">{label}</span>,
    cell: ({ row }) => (
      <input type="checkbox" className="row-select" aria-label={labelOf(row.original)} checked={selected.has(row.original.id)} onChange={() => toggle(row.original.id)} />
    ),
  }
}

const NEW_LIST = 'new'

function AddToListForm({ contactIds, onDone }: { contactIds: number[]; onDone: (added: boolean) => void }) {
  const { t, i18n } = useLingui()
  const [lists, setLists] = useState<{ id: number; name: string }[]>([])
  const [target, setTarget] = useState<Key>(NEW_LIST)
  const [name, setName] = useState('')
  const [errors, setErrors] = useState<{ name?: string; form?: string }>({})
  const [pending, setPending] = useState(false)

  useEffect(() => {
    void api['contact-lists'].list.get({ query: {} }).then(({ data }) => data && setLists(data))
  }, [])

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (target === NEW_LIST && !lengthBetween(name, 2, 50)) {
      setErrors({ name: t`Enter a name of 2 to 50 characters.` })
      return
    }
    setErrors({})
    setPending(true)
    try {
      let contactListId = Number(target)
      if (target === NEW_LIST) {
        const created = await api['contact-lists'].post({ name: name.trim() })
        if (!created.data) throw created.error
        contactListId = created.data.id
      }
      const { data, error } = await api['contact-lists']({ id: contactListId }).contacts.post({ contactIds })
      if (!data) throw error
      const added = data.added
      showToast('success', plural(added, { one: '# contact added to the list.', other: '# contacts added to the list.' }))
      onDone(true)
    } catch (failure) {
      const text = errorMessage(i18n, apiErrorOf(failure).code)
      setErrors({ form: text })
      showToast('error', text)
    } finally {
      setPending(false)
    }
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <Select
        label={t`Contact list`}
        name="contactListId"
        value={target}
        onChange={(value) => setTarget(value ?? NEW_LIST)}
        options={[{ id: NEW_LIST, label: t`A new list` }, ...lists.map((list) => ({ id: list.id, label: list.name }))]}
      />
      {target === NEW_LIST ? <TextField label={t`Name of the new list`} name="name" value={name} onChange={setName} error={errors.name} isRequired maxLength={50} /> : null}
      <DialogFooter onCancel={() => onDone(false)} pending={pending} saveLabel={t`Add`} />
    </Form>
  )
}

/**
 * The contacts page's buttons: "Add to a contact list" starts picking (the table shows its checkboxes);
 * while picking, the button opens the dialog for the picked contacts, and Cancel stops.
 */
export function AddToListButtons({ picking, contactIds, onPicking, onDone }: { picking: boolean; contactIds: number[]; onPicking: (picking: boolean) => void; onDone: () => void }) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const count = contactIds.length
  if (!picking) {
    return (
      // An icon: the contacts page's header is full; assistive technology reads its name.
      <Button variant="secondary" icon aria-label={t`Add to a contact list`} onPress={() => onPicking(true)}>
        <ListIcon />
      </Button>
    )
  }
  return (
    <>
      <Button variant="secondary" onPress={() => onPicking(false)}>
        {t`Cancel`}
      </Button>
      <Button isDisabled={count === 0} onPress={() => setOpen(true)}>
        <ListIcon />
        {t`Add ${count} to a list`}
      </Button>
      <Dialog title={t`Add to a contact list`} isOpen={open} onOpenChange={setOpen}>
        <AddToListForm
          contactIds={contactIds}
          onDone={(added) => {
            setOpen(false)
            if (added) onDone()
          }}
        />
      </Dialog>
    </>
  )
}
