// The quick message modal (§5 Quick message: shortcode required): shortcode, message, shared or
// personal, and an attachment. Saves the text first (POST or PUT), then the attachment
// (POST/DELETE /quick-messages/{id}/media-upload), since a new message has no id to attach to before.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { FileTrigger, Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { CloseIcon, UploadIcon } from '../../components/icons.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { lengthBetween } from '../../forms/validation.ts'
import { SwitchField } from '../../components/switch-field.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import { storedFileName, type QuickMessageRow } from './quick-message-row.ts'
import { serverFieldErrors } from '../../forms/server-errors.ts'
import { saveAttachment, type Attachment } from '../../forms/attachment.ts'

type Errors = { shortcode?: string; message?: string; form?: string }

type FormProps = { record: QuickMessageRow | null; onSaved: (record: QuickMessageRow) => void; onDone: () => void }

function QuickMessageForm({ record, onSaved, onDone }: FormProps) {
  const { t, i18n } = useLingui()
  const [shortcode, setShortcode] = useState(record?.shortcode ?? '')
  const [message, setMessage] = useState(record?.message ?? '')
  const [geral, setGeral] = useState(record?.geral ?? false)
  const [attachment, setAttachment] = useState<Attachment>({ kind: 'keep' })
  // The record as last saved: after a create whose attachment failed, a retry edits it instead of
  // creating a second one.
  const [saved, setSaved] = useState(record)
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const rules = { shortcode: t`Enter a shortcode (at most 50 characters).`, message: t`The message can have at most 5000 characters.` }
  const fail = (code: string) => {
    const text = errorMessage(i18n, code)
    showToast('error', text)
    return text
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = {}
    if (!lengthBetween(shortcode, 1, 50)) found.shortcode = rules.shortcode
    if (message.length > 5000) found.message = rules.message
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const body = { shortcode: shortcode.trim(), message, geral }
      const { data, error } = saved ? await api['quick-messages']({ id: saved.id }).put(body) : await api['quick-messages'].post(body)
      if (error || !data) {
        const failure = apiErrorOf(error)
        const fromServer: Errors = serverFieldErrors(failure, rules)
        if (failure.code === 'ERR_QUICK_MESSAGE_ALREADY_EXISTS') fromServer.shortcode = errorMessage(i18n, failure.code)
        if (Object.keys(fromServer).length === 0) fromServer.form = fail(failure.code)
        setErrors(fromServer)
        return
      }
      onSaved(data)
      setSaved(data)
      const media = api['quick-messages']({ id: data.id })['media-upload']
      const final = await saveAttachment(
        attachment,
        data,
        { upload: (file) => media.post({ file, typeArch: 'quickMessage' }), remove: () => media.delete() },
        (refusal) => fail(apiErrorOf(refusal).code),
      )
      if (!final) {
        // The text is saved; the dialog stays on the saved record so the attachment can be retried.
        setErrors({ form: t`The quick reply was saved, but its attachment was not.` })
        return
      }
      onSaved(final)
      setSaved(final)
      showToast('success', t`Quick reply saved.`)
      onDone()
    } catch (failure) {
      setErrors({ form: fail(apiErrorOf(failure).code) })
    } finally {
      setPending(false)
    }
  }

  const currentName = attachment.kind === 'replace' ? storedFileName(attachment.file.name) : attachment.kind === 'keep' ? (saved?.mediaName ?? null) : null

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <TextField label={t`Shortcode`} name="shortcode" value={shortcode} onChange={setShortcode} error={errors.shortcode} isRequired autoFocus maxLength={50} />
      <TextAreaField label={t`Message`} name="message" value={message} onChange={setMessage} error={errors.message} rows={5} />
      <SwitchField
        isSelected={geral}
        onChange={setGeral}
        description={geral ? t`Everyone in the company can use it.` : t`Only you can see and use it.`}
      >
        {t`Shared with the company`}
      </SwitchField>
      <div className="field">
        <span className="field-label" id="quick-message-attachment">
          {t`Attachment`}
        </span>
        <div className="attachment-row" aria-labelledby="quick-message-attachment" role="group">
          {currentName ? (
            <>
              <span className="chip attachment-name">{currentName}</span>
              <Button variant="ghost" icon aria-label={t`Remove the attachment`} onPress={() => setAttachment(saved?.mediaPath ? { kind: 'remove' } : { kind: 'keep' })}>
                <CloseIcon />
              </Button>
            </>
          ) : (
            <span className="muted-note">{t`No attachment`}</span>
          )}
          <FileTrigger onSelect={(files) => files?.[0] && setAttachment({ kind: 'replace', file: files[0] })}>
            <Button variant="secondary">
              <UploadIcon />
              {currentName ? t`Replace file` : t`Attach file`}
            </Button>
          </FileTrigger>
        </div>
      </div>
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type QuickMessageDialogProps = {
  isOpen: boolean
  record: QuickMessageRow | null
  onOpenChange: (isOpen: boolean) => void
  onSaved: (record: QuickMessageRow) => void
}

export function QuickMessageDialog({ isOpen, record, onOpenChange, onSaved }: QuickMessageDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={record ? t`Edit quick reply` : t`New quick reply`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <QuickMessageForm key={record?.id ?? 'new'} record={record} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
