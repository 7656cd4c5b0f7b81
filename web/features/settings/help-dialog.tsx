// The help video form of the super users (§3 Help): title, description and the video's code (a
// YouTube id of 11 characters) or address. Checked as the server will before sending.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import type { Help } from '../../../src/modules/helps/model.ts'
import { api } from '../../api/client.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { helpBody, helpProblems, type HelpField, type HelpFormValues } from './help-rules.ts'
import { saveDialog } from './requests.ts'

export type HelpRow = Omit<Help, 'createdAt' | 'updatedAt'> & { createdAt: string | Date; updatedAt: string | Date }

type Errors = Partial<Record<HelpField | 'form', string>>
function HelpForm({ help, onSaved, onDone }: { help: HelpRow | null; onSaved: (help: HelpRow) => void; onDone: () => void }) {
  const { t, i18n } = useLingui()
  const [values, setValues] = useState<HelpFormValues>(() => ({ title: help?.title ?? '', description: help?.description ?? '', video: help?.video ?? '' }))
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const messages: Record<HelpField, string> = {
    title: t`Enter a title of 2 to 100 characters.`,
    description: t`The description has at most 2000 characters.`,
    video: t`Enter a YouTube video code (11 characters) or an http(s) address, or leave it empty.`,
  }

  const set = (key: HelpField, value: string) => {
    setValues((current) => ({ ...current, [key]: value }))
    setErrors(({ [key]: _fixed, ...rest }) => rest)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = Object.fromEntries(helpProblems(values).map((field) => [field, messages[field]]))
    setErrors(found)
    if (Object.keys(found).length > 0) return
    const body = helpBody(values)
    const saved = await saveDialog({
      i18n,
      request: () => (help ? api.helps({ id: help.id }).put(body) : api.helps.post(body)),
      fieldTexts: messages,
      setErrors,
      setPending,
    })
    if (!saved) return
    onSaved(saved)
    showToast('success', help ? t`Help video saved.` : t`Help video created.`)
    onDone()
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <TextField label={t`Title`} name="title" value={values.title} onChange={(value) => set('title', value)} error={errors.title} isRequired autoFocus maxLength={100} />
      <TextField
        label={t`Video code`}
        name="video"
        value={values.video}
        onChange={(value) => set('video', value)}
        error={errors.video}
        maxLength={500}
        description={t`The YouTube video code (the 11 characters after v= in its address) or the video's address.`}
      />
      <TextAreaField label={t`Description`} value={values.description} onChange={(value) => set('description', value)} error={errors.description} maxLength={2000} rows={4} />
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type HelpDialogProps = { isOpen: boolean; help: HelpRow | null; onOpenChange: (isOpen: boolean) => void; onSaved: (help: HelpRow) => void }

export function HelpDialog({ isOpen, help, onOpenChange, onSaved }: HelpDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={help ? t`Edit help video` : t`New help video`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <HelpForm key={help?.id ?? 'new'} help={help} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
