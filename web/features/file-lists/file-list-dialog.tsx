// The file list modal (§2 Modals "file list", §5 File list: name at least 3, message required): name,
// message, the list's files (open or remove each) and new files to add. Saving creates or edits the
// list (POST/PUT /files), then sends the new files (POST /files/uploadList/{id}) with a progress bar.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { FileTrigger, Form } from 'react-aria-components'
import type { FileList } from '../../../src/modules/file-lists/model.ts'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { uploadWithProgress } from '../../api/upload-with-progress.ts'
import { Button } from '../../components/button.tsx'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { CloseIcon, UploadIcon } from '../../components/icons.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { refusalErrors } from '../../forms/refusal-errors.ts'
import { lengthBetween } from '../../forms/validation.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { UploadProgress } from '../contact-lists/list-import-dialog.tsx'
import { MAX_FILES_PER_LIST, type FileListRow } from './rows.ts'

type Field = 'name' | 'message' | 'files'
type Errors = Partial<Record<Field | 'form', string>>

type FormProps = { fileList: FileListRow | null; onSaved: (fileList: FileListRow) => void; onDone: () => void }

function FileListForm({ fileList, onSaved, onDone }: FormProps) {
  const { t, i18n } = useLingui()
  const [name, setName] = useState(fileList?.name ?? '')
  const [message, setMessage] = useState(fileList?.message ?? '')
  const [kept, setKept] = useState(fileList?.options ?? [])
  const [added, setAdded] = useState<File[]>([])
  const [errors, setErrors] = useState<Errors>({})
  const [progress, setProgress] = useState<number | null>(null)
  const [pending, setPending] = useState(false)
  const rules: Record<Field, string> = {
    name: t`Enter a name of at least 3 characters (at most 100).`,
    message: t`Enter the message sent with the files.`,
    files: t`A list holds at most ${MAX_FILES_PER_LIST} files.`,
  }

  const addFiles = (files: globalThis.FileList | null) => {
    if (!files) return
    const next = [...added, ...Array.from(files)]
    if (kept.length + next.length > MAX_FILES_PER_LIST) {
      setErrors({ ...errors, files: rules.files })
      return
    }
    setErrors({ ...errors, files: undefined })
    setAdded(next)
  }

  const fail = (text: string) => {
    setErrors({ form: text })
    showToast('error', text)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = {}
    if (!lengthBetween(name, 3, 100)) found.name = rules.name
    if (!message.trim()) found.message = rules.message
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const fields = { name: name.trim(), message: message.trim() }
      const removed = fileList ? fileList.options.length !== kept.length : false
      const body = removed ? { ...fields, options: kept.map((option) => ({ id: option.id, name: option.name })) } : fields
      const { data, error } = fileList ? await api.files({ id: fileList.id }).put(body) : await api.files.post(fields)
      if (error || !data) {
        const fromServer = refusalErrors(apiErrorOf(error), { name: rules.name, message: rules.message }, (code) => errorMessage(i18n, code))
        if (fromServer.form) showToast('error', fromServer.form)
        setErrors(fromServer)
        return
      }
      let saved: FileListRow = data
      if (added.length > 0) {
        setProgress(0)
        const outcome = await uploadWithProgress<FileList>(
          `/api/files/uploadList/${data.id}`,
          () => {
            const form = new FormData()
            for (const file of added) form.append('files', file)
            return form
          },
          setProgress,
        )
        setProgress(null)
        if (!outcome.ok) {
          // The list is saved; the page shows it, and the files can be sent again from its dialog.
          onSaved(saved)
          fail(errorMessage(i18n, outcome.code))
          return
        }
        saved = outcome.result
      }
      onSaved(saved)
      showToast('success', fileList ? t`File list saved.` : t`File list created.`)
      onDone()
    } catch (failure) {
      fail(errorMessage(i18n, apiErrorOf(failure).code))
    } finally {
      setPending(false)
      setProgress(null)
    }
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <TextField label={t`Name`} name="name" value={name} onChange={setName} error={errors.name} isRequired autoFocus maxLength={100} />
      <TextAreaField label={t`Message`} name="message" value={message} onChange={setMessage} error={errors.message} isRequired maxLength={5000} />
      <div className="field full">
        <span className="field-label" id="file-list-files">
          {t`Files`}
        </span>
        <ul className="file-options" aria-labelledby="file-list-files">
          {kept.map((option) => {
            const optionName = option.name
            return (
              <li key={option.id} className="file-option">
                <a className="file-option-name" href={option.mediaUrl} target="_blank" rel="noreferrer">
                  {optionName}
                </a>
                <span className="file-option-type">{option.mediaType}</span>
                <Button variant="ghost" icon aria-label={t`Remove ${optionName}`} onPress={() => setKept(kept.filter((other) => other.id !== option.id))}>
                  <CloseIcon />
                </Button>
              </li>
            )
          })}
          {added.map((file, index) => {
            const fileName = file.name
            return (
              <li key={`new-${index}`} className="file-option">
                <span className="file-option-name file-chosen">{fileName}</span>
                <span className="file-option-type">{t`new`}</span>
                <Button variant="ghost" icon aria-label={t`Remove ${fileName}`} onPress={() => setAdded(added.filter((_, other) => other !== index))}>
                  <CloseIcon />
                </Button>
              </li>
            )
          })}
        </ul>
        <FileTrigger allowsMultiple onSelect={addFiles}>
          <Button variant="secondary">
            <UploadIcon />
            {t`Add files`}
          </Button>
        </FileTrigger>
        {errors.files ? (
          <p className="field-error" role="alert">
            {errors.files}
          </p>
        ) : null}
      </div>
      {progress !== null ? <UploadProgress fraction={progress} savingText={t`Saving the files…`} /> : null}
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type FileListDialogProps = { isOpen: boolean; fileList: FileListRow | null; onOpenChange: (isOpen: boolean) => void; onSaved: (fileList: FileListRow) => void }

export function FileListDialog({ isOpen, fileList, onOpenChange, onSaved }: FileListDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={fileList ? t`File list` : t`New file list`} isOpen={isOpen} onOpenChange={onOpenChange} size="large">
      <FileListForm key={fileList?.id ?? 'new'} fileList={fileList} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
