// The form of the "Add to a contact list" dialog (add-to-list.tsx), in a chunk of its own: its Select
// is not first-load JS of /contacts.
import { plural } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type FormEvent } from 'react'
import { Form, type Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Select } from '../../components/select.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { lengthBetween } from '../../forms/validation.ts'
import { toastFailure } from '../../components/failure-toast.ts'

const NEW_LIST = 'new'

export function AddToListForm({ contactIds, onDone }: { contactIds: number[]; onDone: (added: boolean) => void }) {
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
      const text = toastFailure(i18n, failure)
      setErrors({ form: text })
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
