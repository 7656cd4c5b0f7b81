// The announcement modal (§5 Announcement: title and text required; png, jpg or jpeg; priority 3 and
// active by default). Saves the text first (POST or PUT), then the image
// (POST/DELETE /announcements/{id}/media-upload), since a new announcement has no id before.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { FileTrigger, Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { CloseIcon, UploadIcon } from '../../components/icons.tsx'
import { Select } from '../../components/select.tsx'
import { SwitchField } from '../../components/switch-field.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { saveAttachment, type Attachment } from '../../forms/attachment.ts'
import { serverFieldErrors } from '../../forms/server-errors.ts'
import { lengthBetween } from '../../forms/validation.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { asPriority, toAnnouncementRow, priorities, type AnnouncementRow, type Priority } from './announcement-row.ts'
import { priorityLabel } from './priority-label.ts'

type Errors = { title?: string; text?: string; form?: string }

/** §5: only these are accepted (the server checks the bytes too). */
const IMAGE_TYPES = ['image/png', 'image/jpeg']

type FormProps = { record: AnnouncementRow | null; onSaved: (record: AnnouncementRow) => void; onDone: () => void }

function AnnouncementForm({ record, onSaved, onDone }: FormProps) {
  const { t, i18n } = useLingui()
  const [title, setTitle] = useState(record?.title ?? '')
  const [text, setText] = useState(record?.text ?? '')
  const [priority, setPriority] = useState<Priority>(asPriority(record?.priority ?? 3))
  const [status, setStatus] = useState(record?.status ?? true)
  const [attachment, setAttachment] = useState<Attachment>({ kind: 'keep' })
  const [saved, setSaved] = useState(record)
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const rules = { title: t`Enter a title (at most 200 characters).`, text: t`Enter the text (at most 5000 characters).` }
  const fail = (code: string) => {
    const message = errorMessage(i18n, code)
    showToast('error', message)
    return message
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = {}
    if (!lengthBetween(title, 1, 200)) found.title = rules.title
    if (!lengthBetween(text, 1, 5000)) found.text = rules.text
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const body = { title: title.trim(), text, priority, status }
      const { data, error } = saved ? await api.announcements({ id: saved.id }).put(body) : await api.announcements.post(body)
      if (error || !data) {
        const failure = apiErrorOf(error)
        const fromServer: Errors = serverFieldErrors(failure, rules)
        if (Object.keys(fromServer).length === 0) fromServer.form = fail(failure.code)
        setErrors(fromServer)
        return
      }
      const row = toAnnouncementRow(data)
      onSaved(row)
      setSaved(row)
      const media = api.announcements({ id: data.id })['media-upload']
      const final = await saveAttachment(
        attachment,
        row,
        { upload: (file) => media.post({ file, typeArch: 'announcements' }).then(({ data: saved, error }) => ({ data: saved ? toAnnouncementRow(saved) : null, error })), remove: () => media.delete().then(({ data: saved, error }) => ({ data: saved ? toAnnouncementRow(saved) : null, error })) },
        (refusal) => fail(apiErrorOf(refusal).code),
      )
      if (!final) {
        setErrors({ form: t`The announcement was saved, but its image was not.` })
        return
      }
      onSaved(final)
      showToast('success', t`Announcement saved.`)
      onDone()
    } catch (failure) {
      setErrors({ form: fail(apiErrorOf(failure).code) })
    } finally {
      setPending(false)
    }
  }

  const currentName = attachment.kind === 'replace' ? attachment.file.name.replace(/\s+/g, '_') : attachment.kind === 'keep' ? (saved?.mediaName ?? null) : null
  const pick = (files: FileList | null) => {
    const file = files?.[0]
    if (!file) return
    if (!IMAGE_TYPES.includes(file.type)) {
      showToast('error', t`Choose a png or jpg image.`)
      return
    }
    setAttachment({ kind: 'replace', file })
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <TextField label={t`Title`} name="title" value={title} onChange={setTitle} error={errors.title} isRequired autoFocus maxLength={200} />
      <TextAreaField label={t`Text`} name="text" value={text} onChange={setText} error={errors.text} rows={5} isRequired />
      <Select
        label={t`Priority`}
        name="priority"
        value={priority}
        onChange={(value) => setPriority(asPriority(Number(value)))}
        options={priorities.map((value) => ({ id: value, label: i18n._(priorityLabel(value)) }))}
      />
      <SwitchField isSelected={status} onChange={setStatus} description={status ? t`Everyone sees it in the top bar.` : t`Hidden from everyone but super users.`}>
        {t`Active`}
      </SwitchField>
      <div className="field">
        <span className="field-label" id="announcement-image">
          {t`Image`}
        </span>
        <div className="attachment-row" aria-labelledby="announcement-image" role="group">
          {currentName ? (
            <>
              <span className="chip attachment-name">{currentName}</span>
              <Button variant="ghost" icon aria-label={t`Remove the image`} onPress={() => setAttachment(saved?.mediaPath ? { kind: 'remove' } : { kind: 'keep' })}>
                <CloseIcon />
              </Button>
            </>
          ) : (
            <span className="muted-note">{t`No image`}</span>
          )}
          <FileTrigger acceptedFileTypes={IMAGE_TYPES} onSelect={pick}>
            <Button variant="secondary">
              <UploadIcon />
              {currentName ? t`Replace image` : t`Attach image`}
            </Button>
          </FileTrigger>
        </div>
      </div>
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type AnnouncementDialogProps = {
  isOpen: boolean
  record: AnnouncementRow | null
  onOpenChange: (isOpen: boolean) => void
  onSaved: (record: AnnouncementRow) => void
}

export function AnnouncementDialog({ isOpen, record, onOpenChange, onSaved }: AnnouncementDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={record ? t`Edit announcement` : t`New announcement`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <AnnouncementForm key={record?.id ?? 'new'} record={record} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
