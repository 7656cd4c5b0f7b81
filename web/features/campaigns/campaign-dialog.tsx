// The campaign dialog (§3, §4, §5): name (2 to 50), connection (or rotation over all), a contact list
// or a tag, a file list, a media file sent with the message (saved after the campaign: POST/DELETE
// /campaigns/{id}/media-upload, a new campaign has no id before), scheduledAt, up to 5 message variants with the variables; read-only unless
// the campaign is editable (§4). The pre-flight summary (recipients, invalid, opted out, duration)
// is asked for the targeting shown. Server field errors land on their fields. The date and time are the
// company's wall clock (the server reads scheduledAt in the company's time zone), whatever the
// browser's zone is; the field says which zone.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type FormEvent } from 'react'
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
import { errorMessage } from '../../i18n/error-messages.ts'
import { toScheduledAt, toZonedInput, type CampaignRow, type PreflightData } from './campaign-types.ts'
import { PreflightSummary } from './preflight-summary.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

type Choices = { whatsapps: { id: number; name: string; status: string }[]; contactLists: { id: number; name: string }[]; tags: { id: number; name: string }[]; fileLists: { id: number; name: string }[]; timezone: string | null }
type Field = 'name' | 'whatsappId' | 'contactListId' | 'tagId' | 'fileListId' | 'scheduledAt' | 'message1'
type Errors = Partial<Record<Field | 'form', string>>
const variants = [1, 2, 3, 4, 5] as const
const messageKey = (variant: number) => `message${variant}` as 'message1'

type FormProps = { record: CampaignRow | null; onSaved: (record: CampaignRow) => void; onDone: () => void }

function CampaignForm({ record: opened, onSaved, onDone }: FormProps) {
  const { t, i18n } = useLingui()
  // The campaign as saved so far: a new one saved but whose file was refused is edited from then on.
  const [record, setRecord] = useState<CampaignRow | null>(opened)
  const [attachment, setAttachment] = useState<Attachment>({ kind: 'keep' })
  const readOnly = record !== null && !record.editable
  const [choices, setChoices] = useState<Choices>({ whatsapps: [], contactLists: [], tags: [], fileLists: [], timezone: null })
  const [name, setName] = useState(record?.name ?? '')
  const [whatsappId, setWhatsappId] = useState<number | null>(record?.whatsappId ?? null)
  const [rotate, setRotate] = useState(record?.rotateConnections ?? false)
  const [targetKind, setTargetKind] = useState<'list' | 'tag'>(record?.tagId ? 'tag' : 'list')
  const [contactListId, setContactListId] = useState<number | null>(record?.contactListId ?? null)
  const [tagId, setTagId] = useState<number | null>(record?.tagId ?? null)
  const [fileListId, setFileListId] = useState<number | null>(record?.fileListId ?? null)
  // null until the user types: then the stored one is shown on the company's clock, and not sent again.
  const [typedScheduledAt, setScheduledAt] = useState<string | null>(null)
  const timezone = choices.timezone
  const scheduledAt = typedScheduledAt ?? (timezone ? toZonedInput(record?.scheduledAt ?? null, timezone) : '')
  const [messages, setMessages] = useState<string[]>(variants.map((variant) => record?.[messageKey(variant)] ?? ''))
  const [variant, setVariant] = useState(1)
  const [preflight, setPreflight] = useState<PreflightData | null>(null)
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  useEffect(() => {
    void api.campaigns.options.get().then(({ data }) => data && setChoices(data))
  }, [])

  const rules: Record<Field, string> = {
    name: t`Enter a name of 2 to 50 characters.`,
    whatsappId: t`Choose a connection, or rotate over all of them.`,
    contactListId: t`Choose a contact list or a tag.`,
    tagId: t`Choose a contact list or a tag.`,
    fileListId: t`Choose a file list of this company.`,
    scheduledAt: t`Enter a valid date and time.`,
    message1: t`Write at least one message.`,
  }

  const target = () => (targetKind === 'list' ? { contactListId, tagId: null } : { contactListId: null, tagId })

  const checkPreflight = async () => {
    const { data, error } = await api.campaigns.preflight.post({ whatsappId, rotateConnections: rotate, ...target() })
    if (error || !data) {
      const failure = apiErrorOf(error)
      setErrors(serverFieldErrors(failure, rules))
      return
    }
    setPreflight(data)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (readOnly) return
    const found: Errors = {}
    if (name.trim().length < 2 || name.trim().length > 50) found.name = rules.name
    if (!messages.some((text) => text.trim())) found.message1 = rules.message1
    const chosen = target()
    if (!chosen.contactListId && !chosen.tagId) found[targetKind === 'list' ? 'contactListId' : 'tagId'] = rules.contactListId
    if (!whatsappId && !rotate) found.whatsappId = rules.whatsappId
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const body = {
        name: name.trim(),
        whatsappId,
        rotateConnections: rotate,
        ...chosen,
        fileListId,
        ...(typedScheduledAt === null ? (record ? {} : { scheduledAt: null }) : { scheduledAt: toScheduledAt(typedScheduledAt) }),
        message1: messages[0]!,
        message2: messages[1]!,
        message3: messages[2]!,
        message4: messages[3]!,
        message5: messages[4]!,
      }
      const { data, error } = record ? await api.campaigns({ id: record.id }).put(body) : await api.campaigns.post(body)
      if (error || !data) {
        const failure = apiErrorOf(error)
        const fromServer: Errors = serverFieldErrors(failure, rules)
        if (Object.keys(fromServer).length === 0) {
          fromServer.form = errorMessage(i18n, failure.code)
          showToast('error', fromServer.form)
        }
        setErrors(fromServer)
        return
      }
      setRecord(data)
      onSaved(data)
      const media = api.campaigns({ id: data.id })['media-upload']
      const final = await saveAttachment(attachment, data, { upload: (file) => media.post({ file }), remove: () => media.delete() }, (refusal) =>
        toastFailure(i18n, refusal),
      )
      if (!final) {
        // The campaign is saved; the dialog stays on it so that another file can be tried.
        setAttachment({ kind: 'keep' })
        setErrors({ form: t`The campaign was saved, but the file could not be attached.` })
        return
      }
      onSaved(final)
      showToast('success', t`Campaign saved.`)
      onDone()
    } finally {
      setPending(false)
    }
  }

  const storedMedia = record?.mediaName ?? null
  const mediaName = attachment.kind === 'replace' ? attachment.file.name : attachment.kind === 'keep' ? storedMedia : null
  const options = (rows: { id: number; name: string }[]) => rows.map((row) => ({ id: row.id, label: row.name }))
  const variables = ['{{name}}', '{{firstName}}', '{{email}}', '{{number}}', '{{ms}}', '{{hora}}', '{{protocol}}']

  return (
    <Form className="form campaign-form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      {readOnly ? <p className="muted-note" role="status">{t`This campaign can no longer be edited; it is shown read-only.`}</p> : null}
      <TextField label={t`Name`} name="name" value={name} onChange={setName} error={errors.name} isRequired isReadOnly={readOnly} autoFocus maxLength={50} />
      <div className="form-row">
        <Select
          label={t`Connection`}
          options={choices.whatsapps.map((row) => ({ id: row.id, label: `${row.name} (${row.status})` }))}
          value={whatsappId}
          onChange={(value) => setWhatsappId(value === null ? null : Number(value))}
          error={errors.whatsappId}
          isDisabled={readOnly}
        />
        <SwitchField isSelected={rotate} onChange={setRotate} isDisabled={readOnly} description={t`Spreads the sends over every connected number of the company.`}>
          {t`Rotate connections`}
        </SwitchField>
      </div>
      <div className="form-row">
        <Select
          label={t`Send to`}
          options={[
            { id: 'list', label: t`A contact list` },
            { id: 'tag', label: t`Contacts with a tag` },
          ]}
          value={targetKind}
          onChange={(value) => setTargetKind(value === 'tag' ? 'tag' : 'list')}
          isDisabled={readOnly}
        />
        {targetKind === 'list' ? (
          <Select label={t`Contact list`} options={options(choices.contactLists)} value={contactListId} onChange={(value) => setContactListId(value === null ? null : Number(value))} error={errors.contactListId} isDisabled={readOnly} />
        ) : (
          <Select label={t`Tag`} options={options(choices.tags)} value={tagId} onChange={(value) => setTagId(value === null ? null : Number(value))} error={errors.tagId} isDisabled={readOnly} />
        )}
      </div>
      <div className="form-row">
        <Select label={t`File list`} options={[{ id: 0, label: t`None` }, ...options(choices.fileLists)]} value={fileListId ?? 0} onChange={(value) => setFileListId(value ? Number(value) : null)} error={errors.fileListId} isDisabled={readOnly} />
        <div className="field">
          <label className="field-label" htmlFor="campaign-scheduled-at">
            {t`Scheduled for`}
          </label>
          <input
            id="campaign-scheduled-at"
            className="field-input field-frame"
            type="datetime-local"
            value={scheduledAt}
            onChange={(event) => setScheduledAt(event.target.value)}
            readOnly={readOnly || !timezone}
            aria-invalid={Boolean(errors.scheduledAt)}
            aria-describedby="campaign-scheduled-at-help"
          />
          {errors.scheduledAt ? (
            <span className="field-error" id="campaign-scheduled-at-help">
              {errors.scheduledAt}
            </span>
          ) : (
            <span className="field-description" id="campaign-scheduled-at-help">
              {timezone ? t`Company time (${timezone}). Empty: the campaign stays inactive.` : t`Empty: the campaign stays inactive.`}
            </span>
          )}
        </div>
      </div>
      <div className="field">
        <span className="field-label" id="campaign-media">
          {t`Media sent with the message`}
        </span>
        <div className="schedule-attachment-row" aria-labelledby="campaign-media" role="group">
          {mediaName ? (
            attachment.kind === 'keep' && record?.mediaUrl ? (
              <a className="chip schedule-attachment-name" href={record.mediaUrl} target="_blank" rel="noopener noreferrer">
                {mediaName}
              </a>
            ) : (
              <span className="chip schedule-attachment-name">{mediaName}</span>
            )
          ) : (
            <span className="schedule-muted">{t`No file: the message goes as text.`}</span>
          )}
          {readOnly ? null : (
            <>
              {mediaName ? (
                <Button variant="ghost" icon aria-label={t`Remove the file`} onPress={() => setAttachment(record?.mediaPath ? { kind: 'remove' } : { kind: 'keep' })}>
                  <CloseIcon />
                </Button>
              ) : null}
              <FileTrigger
                acceptedFileTypes={['image/*', 'video/*', 'audio/*', 'application/pdf']}
                onSelect={(files) => {
                  const file = files?.[0]
                  if (file) setAttachment({ kind: 'replace', file })
                }}
              >
                <Button variant="secondary">
                  <UploadIcon />
                  {mediaName ? t`Replace file` : t`Attach a file`}
                </Button>
              </FileTrigger>
            </>
          )}
        </div>
      </div>
      <div className="campaign-variants" role="tablist" aria-label={t`Message variants`}>
        {variants.map((number) => (
          <Button key={number} variant={number === variant ? 'secondary' : 'ghost'} onPress={() => setVariant(number)} aria-pressed={number === variant}>
            {t`Message ${number}`}
          </Button>
        ))}
      </div>
      <TextAreaField
        label={t`Message ${variant}`}
        name={`message${variant}`}
        value={messages[variant - 1] ?? ''}
        onChange={(value) => setMessages((current) => current.map((text, index) => (index === variant - 1 ? value : text)))}
        error={variant === 1 ? errors.message1 : undefined}
        rows={5}
        maxLength={4096}
        isReadOnly={readOnly}
        description={t`The variants are rotated among the contacts. Variables: ${variables.join(' ')} and the company's campaign variables.`}
      />
      <div className="campaign-preflight">
        <Button variant="secondary" onPress={() => void checkPreflight()}>
          {t`Pre-flight check`}
        </Button>
        {preflight ? <PreflightSummary preflight={preflight} /> : null}
      </div>
      {readOnly ? (
        <div className="dialog-footer">
          <Button variant="secondary" onPress={onDone}>
            {t`Close`}
          </Button>
        </div>
      ) : (
        <DialogFooter onCancel={onDone} pending={pending} />
      )}
    </Form>
  )
}

type DialogProps = { isOpen: boolean; record: CampaignRow | null; onOpenChange: (isOpen: boolean) => void; onSaved: (record: CampaignRow) => void }

export function CampaignDialog({ isOpen, record, onOpenChange, onSaved }: DialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={record ? t`Edit campaign` : t`New campaign`} isOpen={isOpen} onOpenChange={onOpenChange} size="large">
      <CampaignForm key={record?.id ?? 'new'} record={record} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
