// Adding or editing one chatbot option in place: its title (what the menu lists) and the message the
// customer gets on choosing it. Checked before sending; the server's refusals land on the fields.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { Button } from '../../components/button.tsx'
import { FormAlert } from '../../components/dialog-footer.tsx'
import { TextField } from '../../components/text-field.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { MAX_MESSAGE } from './queue-form.ts'

export type OptionFormErrors = { title?: MessageDescriptor; message?: MessageDescriptor; form?: string }

export const optionRules = {
  title: msg`Enter a title of 1 to 100 characters.`,
  message: msg`At most 5000 characters.`,
} satisfies Record<string, MessageDescriptor>

export type OptionFormProps = {
  /** Names the form: "New option", "New sub-option of X", "Edit X". */
  label: string
  initial?: { title: string; message: string }
  /** Resolves with the errors to show, or null when saved. */
  onSubmit: (values: { title: string; message: string }) => Promise<OptionFormErrors | null>
  onCancel: () => void
}

export function OptionForm({ label, initial, onSubmit, onCancel }: OptionFormProps) {
  const { t, i18n } = useLingui()
  const [title, setTitle] = useState(initial?.title ?? '')
  const [message, setMessage] = useState(initial?.message ?? '')
  const [errors, setErrors] = useState<OptionFormErrors>({})
  const [pending, setPending] = useState(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    // Keeps the submit from reaching a form around this one's dialog.
    event.stopPropagation()
    const found: OptionFormErrors = {}
    const trimmed = title.trim()
    if (trimmed.length < 1 || trimmed.length > 100) found.title = optionRules.title
    if (message.length > MAX_MESSAGE) found.message = optionRules.message
    setErrors(found)
    if (found.title || found.message) return
    setPending(true)
    try {
      const refused = await onSubmit({ title: trimmed, message })
      if (refused) setErrors(refused)
    } finally {
      setPending(false)
    }
  }

  return (
    <Form className="queue-option-form" aria-label={label} onSubmit={(event) => void submit(event)} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <TextField label={t`Option title`} value={title} onChange={setTitle} error={errors.title ? i18n._(errors.title) : undefined} isRequired autoFocus maxLength={100} />
      <TextAreaField
        label={t`Option message`}
        value={message}
        onChange={setMessage}
        error={errors.message ? i18n._(errors.message) : undefined}
        description={t`Sent when the customer picks this option; its sub-options are listed after it.`}
        maxLength={MAX_MESSAGE}
        rows={2}
      />
      <div className="queue-option-form-actions">
        <Button variant="secondary" onPress={onCancel}>
          {t`Cancel`}
        </Button>
        <Button type="submit" isPending={pending}>
          {t`Save option`}
        </Button>
      </div>
    </Form>
  )
}
