// The contact form (§5 Contact), shared by the ticket's contact drawer (edit) and the contacts page
// (add and edit): name 2 to 50, number 8 to 50 with the mask, a valid e-mail or none, and the extra
// info rows (name and value, added and removed). POST /contacts adds, PUT /contacts/{id} sends the
// whole extraInfo list; the server's field errors show under their fields.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import type { ContactDetail, CreateContactBody, UpdateContactBody } from '../../src/modules/contacts/model.ts'
import { api } from '../api/client.ts'
import { apiErrorOf } from '../api/errors.ts'
import { Button } from '../components/button.tsx'
import { PlusIcon, TrashIcon } from '../components/icons.tsx'
import { TextField } from '../components/text-field.tsx'
import { showToast } from '../components/toasts.tsx'
import { errorMessage } from '../i18n/error-messages.ts'
import { maskTypedNumber, numberForEdit } from './contact-number.ts'
import { isEmail, lengthBetween } from './validation.ts'

type ExtraRow = { key: string; id?: number; name: string; value: string }
type Errors = { name?: string; number?: string; email?: string; form?: string; extra: Record<string, string> }

let nextRowKey = 0
const rowKey = () => `row-${nextRowKey++}`

export type ContactFormProps = {
  /** The contact to edit; without it the form adds a new one. */
  contact?: ContactDetail
  onSaved: (contact: ContactDetail) => void
  onCancel: () => void
}

export function ContactForm({ contact, onSaved, onCancel }: ContactFormProps) {
  const { t, i18n } = useLingui()
  const initialNumber = contact ? numberForEdit(contact.number) : ''
  const [name, setName] = useState(contact?.name ?? '')
  const [number, setNumber] = useState(initialNumber)
  const [email, setEmail] = useState(contact?.email ?? '')
  const [rows, setRows] = useState<ExtraRow[]>(() => (contact?.extraInfo ?? []).map((field) => ({ key: rowKey(), id: field.id, name: field.name, value: field.value })))
  const [errors, setErrors] = useState<Errors>({ extra: {} })
  const [pending, setPending] = useState(false)

  const rules = {
    name: t`Enter a name, 2 to 50 characters.`,
    number: t`Enter the number with its area code, 8 to 50 characters.`,
    email: t`Enter a valid e-mail address.`,
    extraName: t`Give this field a name.`,
  }

  const editRow = (key: string, change: Partial<ExtraRow>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)))

  const send = (kept: ExtraRow[]) => {
    const extraInfo = kept.map((row) => ({ ...(row.id ? { id: row.id } : {}), name: row.name.trim(), value: row.value.trim() }))
    if (!contact) {
      const body: CreateContactBody = { name: name.trim(), number: number.trim(), email: email.trim(), extraInfo }
      return api.contacts.post(body)
    }
    const body: UpdateContactBody = {
      name: name.trim(),
      email: email.trim(),
      extraInfo,
      // Sent only when changed: a number sent again is checked on WhatsApp again.
      ...(number.trim() !== initialNumber ? { number: number.trim() } : {}),
    }
    return api.contacts({ id: contact.id }).put(body)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    // A row left entirely blank is dropped rather than refused.
    const kept = rows.filter((row) => row.name.trim() || row.value.trim())
    const found: Errors = { extra: {} }
    if (!lengthBetween(name, 2, 50)) found.name = rules.name
    if (!lengthBetween(number, 8, 50)) found.number = rules.number
    if (email.trim() && !isEmail(email)) found.email = rules.email
    for (const row of kept) if (!row.name.trim()) found.extra[row.key] = rules.extraName
    setErrors(found)
    if (found.name || found.number || found.email || Object.keys(found.extra).length > 0) return

    setPending(true)
    try {
      const { data, error } = await send(kept)
      if (error || !data) {
        const failure = apiErrorOf(error)
        const fromServer: Errors = { extra: {} }
        for (const { field } of failure.fields) {
          if (field === 'name' || field === 'number' || field === 'email') fromServer[field] = rules[field]
          const extraIndex = /^extraInfo\.(\d+)/.exec(field)?.[1]
          const row = extraIndex !== undefined ? kept[Number(extraIndex)] : undefined
          if (row) fromServer.extra[row.key] = rules.extraName
        }
        if (failure.code === 'ERR_DUPLICATED_CONTACT' || failure.code === 'ERR_WAPP_INVALID_CONTACT') fromServer.number = errorMessage(i18n, failure.code)
        if (!fromServer.name && !fromServer.number && !fromServer.email && Object.keys(fromServer.extra).length === 0) fromServer.form = errorMessage(i18n, failure.code)
        setErrors(fromServer)
        return
      }
      showToast('success', t`Contact saved.`)
      onSaved(data)
    } catch (failure) {
      setErrors({ extra: {}, form: errorMessage(i18n, apiErrorOf(failure).code) })
    } finally {
      setPending(false)
    }
  }

  return (
    <Form className="form contact-form" onSubmit={submit} validationBehavior="aria" aria-label={contact ? t`Edit contact` : t`New contact`}>
      {errors.form ? (
        <p className="form-alert" role="alert">
          {errors.form}
        </p>
      ) : null}
      <TextField label={t`Name`} name="name" value={name} onChange={setName} error={errors.name} isRequired autoFocus />
      <TextField
        label={t`Number`}
        name="number"
        inputMode="tel"
        value={number}
        onChange={(typed) => setNumber(maskTypedNumber(typed))}
        error={errors.number}
        description={t`With the area code, e.g. (11) 98765-4321; other countries start with +.`}
        isRequired
      />
      <TextField label={t`E-mail`} name="email" type="email" value={email} onChange={setEmail} error={errors.email} />
      <fieldset className="contact-extra-fields">
        <legend className="field-label">{t`Extra information`}</legend>
        {rows.map((row, index) => {
          const position = index + 1
          return (
            <div key={row.key} className="contact-extra-row">
              <TextField label={t`Field ${position} name`} value={row.name} onChange={(value) => editRow(row.key, { name: value })} error={errors.extra[row.key]} />
              <TextField label={t`Field ${position} value`} value={row.value} onChange={(value) => editRow(row.key, { value })} />
              <Button variant="ghost" icon aria-label={t`Remove field ${position}`} onPress={() => setRows((current) => current.filter((other) => other.key !== row.key))}>
                <TrashIcon />
              </Button>
            </div>
          )
        })}
        <Button variant="secondary" onPress={() => setRows((current) => [...current, { key: rowKey(), name: '', value: '' }])}>
          <PlusIcon />
          {t`Add field`}
        </Button>
      </fieldset>
      <div className="dialog-actions">
        <Button variant="secondary" onPress={onCancel}>
          {t`Cancel`}
        </Button>
        <Button type="submit" isPending={pending}>
          {t`Save`}
        </Button>
      </div>
    </Form>
  )
}
