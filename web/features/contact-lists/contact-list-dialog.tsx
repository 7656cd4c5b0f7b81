// The contact list modal (§5 Contact list: name required, 2 to 50): creates (POST /contact-lists) or
// renames (PUT). A new list may start with the contacts whose tickets carry a tag (POST .../contacts).
import { plural } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type FormEvent } from 'react'
import { Form, type Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { Select } from '../../components/select.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { refusalErrors } from '../../forms/refusal-errors.ts'
import { lengthBetween } from '../../forms/validation.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import type { ContactListRow } from './rows.ts'
import { toastFailure } from '../../components/failure-toast.ts'

type Errors = { name?: string; form?: string }

type FormProps = { contactList: ContactListRow | null; onSaved: (contactList: ContactListRow) => void; onDone: () => void }

const NO_TAG = 'none'

function ContactListForm({ contactList, onSaved, onDone }: FormProps) {
  const { t, i18n } = useLingui()
  const [name, setName] = useState(contactList?.name ?? '')
  const [tagId, setTagId] = useState<Key>(NO_TAG)
  const [tags, setTags] = useState<{ id: number; name: string }[]>([])
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)
  const rules = { name: t`Enter a name of 2 to 50 characters.` }

  useEffect(() => {
    if (contactList) return
    void api.tags.list.get({ query: {} }).then(({ data }) => data && setTags(data))
  }, [contactList])

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!lengthBetween(name, 2, 50)) {
      setErrors({ name: rules.name })
      return
    }
    setErrors({})
    setPending(true)
    try {
      const body = { name: name.trim() }
      const { data, error } = contactList ? await api['contact-lists']({ id: contactList.id }).put(body) : await api['contact-lists'].post(body)
      if (error || !data) {
        const fromServer: Errors = refusalErrors(apiErrorOf(error), rules, (code) => errorMessage(i18n, code))
        if (fromServer.form) showToast('error', fromServer.form)
        setErrors(fromServer)
        return
      }
      let saved: ContactListRow = data
      if (!contactList && tagId !== NO_TAG) {
        const added = await api['contact-lists']({ id: data.id }).contacts.post({ tagId: Number(tagId) })
        if (added.data) {
          const count = added.data.added
          saved = { ...saved, contactsCount: count }
          showToast('success', plural(count, { one: '# contact added from the tag.', other: '# contacts added from the tag.' }))
        } else toastFailure(i18n, added.error)
      }
      onSaved(saved)
      showToast('success', contactList ? t`Contact list saved.` : t`Contact list created.`)
      onDone()
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
      <TextField label={t`Name`} name="name" value={name} onChange={setName} error={errors.name} isRequired autoFocus maxLength={50} />
      {contactList ? null : (
        <Select
          label={t`Start with the contacts of a tag (optional)`}
          name="tagId"
          value={tagId}
          onChange={(value) => setTagId(value ?? NO_TAG)}
          options={[{ id: NO_TAG, label: t`No tag` }, ...tags.map((tag) => ({ id: tag.id, label: tag.name }))]}
        />
      )}
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type ContactListDialogProps = { isOpen: boolean; contactList: ContactListRow | null; onOpenChange: (isOpen: boolean) => void; onSaved: (contactList: ContactListRow) => void }

export function ContactListDialog({ isOpen, contactList, onOpenChange, onSaved }: ContactListDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={contactList ? t`Edit contact list` : t`New contact list`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <ContactListForm key={contactList?.id ?? 'new'} contactList={contactList} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
