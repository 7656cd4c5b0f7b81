// The contact list item modal (§5 Contact list item: name 2 to 50, number 8 to 50, a valid e-mail or
// none): adds (POST /contact-list-items) or edits (PUT). The server's field errors show under their fields.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { refusalErrors } from '../../forms/refusal-errors.ts'
import { isEmail, lengthBetween } from '../../forms/validation.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import type { ContactListItemRow } from './rows.ts'
import { toastFailure } from '../../components/failure-toast.ts'

type Field = 'name' | 'number' | 'email'
type Errors = Partial<Record<Field | 'form', string>>

type FormProps = { contactListId: number; item: ContactListItemRow | null; onSaved: (item: ContactListItemRow) => void; onDone: () => void }

function ItemForm({ contactListId, item, onSaved, onDone }: FormProps) {
  const { t, i18n } = useLingui()
  const [name, setName] = useState(item?.name ?? '')
  const [number, setNumber] = useState(item?.number ?? '')
  const [email, setEmail] = useState(item?.email ?? '')
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)
  const rules: Record<Field, string> = {
    name: t`Enter a name of 2 to 50 characters.`,
    number: t`Enter a number of 8 to 50 characters, with the area code.`,
    email: t`Enter a valid e-mail address, or leave it empty.`,
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = {}
    if (!lengthBetween(name, 2, 50)) found.name = rules.name
    if (!lengthBetween(number, 8, 50)) found.number = rules.number
    if (email.trim() && !isEmail(email)) found.email = rules.email
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const fields = { name: name.trim(), number: number.trim(), email: email.trim() }
      const { data, error } = item ? await api['contact-list-items']({ id: item.id }).put(fields) : await api['contact-list-items'].post({ ...fields, contactListId })
      if (error || !data) {
        const fromServer = refusalErrors(apiErrorOf(error), rules, (code) => errorMessage(i18n, code), { code: 'ERR_DUPLICATED_CONTACT_LIST_ITEM', field: 'number' })
        if (fromServer.form) showToast('error', fromServer.form)
        setErrors(fromServer)
        return
      }
      onSaved(data)
      showToast('success', item ? t`Contact saved.` : t`Contact added to the list.`)
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
      <TextField label={t`Number`} name="number" value={number} onChange={setNumber} error={errors.number} isRequired maxLength={50} inputMode="tel" description={t`With the area code; numbers without a country code are taken as Brazilian.`} />
      <TextField label={t`E-mail`} name="email" type="email" value={email} onChange={setEmail} error={errors.email} maxLength={254} />
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type ItemDialogProps = { isOpen: boolean; contactListId: number; item: ContactListItemRow | null; onOpenChange: (isOpen: boolean) => void; onSaved: (item: ContactListItemRow) => void }

export function ItemDialog({ isOpen, contactListId, item, onOpenChange, onSaved }: ItemDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={item ? t`Edit contact` : t`Add contact to the list`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <ItemForm key={item?.id ?? 'new'} contactListId={contactListId} item={item} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
