// The schedule-message dialog (§2 Schedules and the ticket options, §3 Schedule, §5 Schedule message,
// §9): a message of at least 5 characters to a contact, sent at a moment (one hour ahead by default, in
// the browser's time zone), with an optional image (png, jpg, jpeg), repeated daily, weekly or monthly and
// cancelled when the customer replies first if the user asks (repeat-fields.tsx). The text is saved first (POST or
// PUT /schedules), then the image (POST/DELETE /schedules/{id}/media-upload), since a new schedule has
// no id to attach to before. One already sent, or being sent, is shown read-only.
import type { ZonedDateTime } from '@internationalized/date'
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { FileTrigger, Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { CloseIcon, TrashIcon, UploadIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { saveAttachment, type Attachment } from '../../forms/attachment.ts'
import { serverFieldErrors } from '../../forms/server-errors.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { ContactPicker } from '../../components/contact-picker.tsx'
import { scheduleErrorMessage } from './schedule-errors.ts'
import { checkScheduleDraft, isScheduleReadOnly, SCHEDULE_BODY_MAX, type ScheduleContact, type ScheduleProblem, type ScheduleRecord } from './schedule-rules.ts'
import { scheduleStatusClass, scheduleStatusLabels } from './schedule-status.ts'
import { defaultSendAt, SendAtField, sendAtFromApi, sendAtToApi } from './send-at-field.tsx'
import { RepeatFields } from './repeat-fields.tsx'
import { checkRepeatDraft, repeatDraftOf, repeatToApi, type RepeatProblem } from './repeat-rules.ts'
import '../../styles/schedules.css'

export type ScheduleDialogProps = {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  /** The schedule to show or edit; none to add one. */
  schedule?: ScheduleRecord
  /** Adds for this contact, which then cannot be changed (the ticket's contact, /schedules?contactId=). */
  contact?: ScheduleContact
  /** The ticket it is scheduled from: the message goes out on that ticket's connection. */
  ticketId?: number
}

export function ScheduleDialog({ isOpen, onOpenChange, schedule, contact, ticketId }: ScheduleDialogProps) {
  const { t } = useLingui()
  const title = !schedule ? t`New scheduled message` : isScheduleReadOnly(schedule.status) ? t`Scheduled message` : t`Edit scheduled message`
  return (
    <Dialog title={title} isOpen={isOpen} onOpenChange={onOpenChange}>
      <ScheduleForm key={schedule?.id ?? 'new'} schedule={schedule} contact={contact} ticketId={ticketId} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}

type Errors = {
  body?: string
  contactId?: string
  sendAt?: string
  file?: string
  recurrence?: string
  recurrenceCount?: string
  recurrenceUntil?: string
  form?: string
}

type FormProps = { schedule?: ScheduleRecord; contact?: ScheduleContact; ticketId?: number; onDone: () => void }

function ScheduleForm({ schedule, contact: fixedContact, ticketId, onDone }: FormProps) {
  const { t, i18n } = useLingui()
  const [contact, setContact] = useState<ScheduleContact | null>(schedule?.contact ?? fixedContact ?? null)
  const [body, setBody] = useState(schedule?.body ?? '')
  const [sendAt, setSendAt] = useState<ZonedDateTime | null>(() => (schedule ? sendAtFromApi(schedule.sendAt) : defaultSendAt()))
  const [attachment, setAttachment] = useState<Attachment>({ kind: 'keep' })
  const [repeat, setRepeat] = useState(() => repeatDraftOf(schedule))
  // The schedule as last saved: after a create whose image failed, a retry edits it instead of
  // creating a second one.
  const [saved, setSaved] = useState<ScheduleRecord | null>(schedule ?? null)
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)
  const [confirmingDelete, setConfirmingDelete] = useState(false)

  // The page hands in the live copy: one the dispatcher picked up meanwhile turns read-only here too.
  const status = schedule?.status ?? saved?.status ?? 'PENDENTE'
  const readOnly = isScheduleReadOnly(status)

  const texts: Record<ScheduleProblem, string> = {
    required: t`Required`,
    tooShort: t`Message too short`,
    tooLong: t`The message can have at most 5000 characters.`,
    past: t`Choose a moment in the future.`,
    notImage: t`Attach a png, jpg or jpeg image.`,
  }
  const repeatTexts: Record<RepeatProblem, string> = {
    required: t`Required`,
    countRange: t`Choose from 2 to 365 times.`,
    beforeSendAt: t`The last day cannot come before the first sending.`,
  }
  const fail = (code: string) => {
    const text = scheduleErrorMessage(i18n, code)
    showToast('error', text)
    return text
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (readOnly) return
    const moment = sendAt?.toDate() ?? null
    const problems = checkScheduleDraft(
      { body, contactId: contact?.id ?? null, sendAt: moment, file: attachment.kind === 'replace' ? attachment.file : null },
      new Date(),
    )
    const found: Errors = {}
    for (const [field, problem] of Object.entries(problems) as [keyof Errors, ScheduleProblem][]) found[field] = texts[problem]
    for (const [field, problem] of Object.entries(checkRepeatDraft(repeat, moment)) as [keyof Errors, RepeatProblem][]) found[field] = repeatTexts[problem]
    setErrors(found)
    if (Object.keys(found).length > 0 || !contact || !sendAt) return
    setPending(true)
    try {
      const fields = { body: body.trim(), sendAt: sendAtToApi(sendAt), contactId: contact.id, ...repeatToApi(repeat) }
      const { data, error } = saved
        ? await api.schedules({ id: saved.id }).put(fields)
        : await api.schedules.post({ ...fields, ...(ticketId ? { ticketId } : {}) })
      if (error || !data) {
        const failure = apiErrorOf(error)
        const fromServer: Errors = serverFieldErrors(failure, {
          body: texts.tooShort,
          sendAt: texts.past,
          contactId: texts.required,
          recurrence: texts.required,
          recurrenceCount: repeatTexts.countRange,
          recurrenceUntil: repeatTexts.beforeSendAt,
        })
        if (failure.code === 'ERR_NO_CONTACT_FOUND') fromServer.contactId = scheduleErrorMessage(i18n, failure.code)
        if (Object.keys(fromServer).length === 0) fromServer.form = fail(failure.code)
        setErrors(fromServer)
        return
      }
      setSaved(data)
      const media = api.schedules({ id: data.id })['media-upload']
      const final = await saveAttachment(attachment, data, { upload: (file) => media.post({ file }), remove: () => media.delete() }, (refusal) =>
        fail(apiErrorOf(refusal).code),
      )
      if (!final) {
        // The text is saved; the dialog stays on the saved schedule so the image can be retried.
        setAttachment({ kind: 'keep' })
        setErrors({ form: t`The message was scheduled, but the image could not be attached.` })
        return
      }
      setSaved(final)
      showToast('success', schedule ? t`Scheduled message saved.` : t`Message scheduled.`)
      onDone()
    } catch (failure) {
      setErrors({ form: fail(apiErrorOf(failure).code) })
    } finally {
      setPending(false)
    }
  }

  const confirmDelete = async (): Promise<boolean> => {
    if (!saved) return true
    try {
      const { error } = await api.schedules({ id: saved.id }).delete()
      if (error) {
        fail(apiErrorOf(error).code)
        return false
      }
      showToast('success', t`Scheduled message deleted.`)
      onDone()
      return true
    } catch (failure) {
      fail(apiErrorOf(failure).code)
      return false
    }
  }

  const storedName = saved?.mediaName ?? null
  const currentName = attachment.kind === 'replace' ? attachment.file.name : attachment.kind === 'keep' ? storedName : null
  const current = schedule ?? saved

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      {current && current.status !== 'PENDENTE' ? <ScheduleStatusNotice schedule={current} /> : null}
      <ContactPicker value={contact} onChange={setContact} isFixed={Boolean(fixedContact) || readOnly} error={errors.contactId} />
      <TextAreaField label={t`Message`} name="body" value={body} onChange={setBody} error={errors.body} isReadOnly={readOnly} isRequired maxLength={SCHEDULE_BODY_MAX} rows={5} />
      <SendAtField value={sendAt} onChange={setSendAt} error={errors.sendAt} isReadOnly={readOnly} />
      <RepeatFields
        value={repeat}
        onChange={(next) => {
          setRepeat(next)
          // A changed repetition is checked again on submit: its old message would mislead meanwhile.
          setErrors((previous) => ({ ...previous, recurrence: undefined, recurrenceCount: undefined, recurrenceUntil: undefined }))
        }}
        errors={errors}
        isReadOnly={readOnly}
      />
      <div className="field">
        <span className="field-label" id="schedule-attachment">
          {t`Image`}
        </span>
        <div className="schedule-attachment-row" aria-labelledby="schedule-attachment" role="group">
          {currentName ? (
            attachment.kind === 'keep' && saved?.mediaUrl ? (
              <a className="chip schedule-attachment-name" href={saved.mediaUrl} target="_blank" rel="noopener noreferrer">
                {currentName}
              </a>
            ) : (
              <span className="chip schedule-attachment-name">{currentName}</span>
            )
          ) : (
            <span className="schedule-muted">{t`No image`}</span>
          )}
          {readOnly ? null : (
            <>
              {currentName ? (
                <Button
                  variant="ghost"
                  icon
                  aria-label={t`Remove the image`}
                  onPress={() => {
                    setAttachment(saved?.mediaPath ? { kind: 'remove' } : { kind: 'keep' })
                    setErrors((previous) => ({ ...previous, file: undefined }))
                  }}
                >
                  <CloseIcon />
                </Button>
              ) : null}
              <FileTrigger
                acceptedFileTypes={['image/png', 'image/jpeg', '.png', '.jpg', '.jpeg']}
                onSelect={(files) => {
                  const file = files?.[0]
                  if (!file) return
                  setAttachment({ kind: 'replace', file })
                  setErrors((previous) => ({ ...previous, file: undefined }))
                }}
              >
                <Button variant="secondary">
                  <UploadIcon />
                  {currentName ? t`Replace image` : t`Attach image`}
                </Button>
              </FileTrigger>
            </>
          )}
        </div>
        {errors.file ? (
          <p className="field-error" role="alert">
            {errors.file}
          </p>
        ) : null}
      </div>
      <div className="dialog-actions schedule-dialog-actions">
        {saved ? (
          <Button variant="danger" className="schedule-delete" onPress={() => setConfirmingDelete(true)}>
            <TrashIcon />
            {t`Delete`}
          </Button>
        ) : null}
        <Button variant="secondary" onPress={onDone}>
          {readOnly ? t`Close` : t`Cancel`}
        </Button>
        {readOnly ? null : (
          <Button type="submit" isPending={pending}>
            {saved ? t`Save` : t`Schedule`}
          </Button>
        )}
      </div>
      <ConfirmDialog
        title={t`Delete scheduled message`}
        isOpen={confirmingDelete}
        onOpenChange={setConfirmingDelete}
        onConfirm={confirmDelete}
        confirmLabel={t`Delete`}
      >
        <p>{t`Do you really want to delete this record?`}</p>
      </ConfirmDialog>
    </Form>
  )
}

/** A status other than waiting, and why the form is read-only or what saving a failed one does. */
function ScheduleStatusNotice({ schedule }: { schedule: ScheduleRecord }) {
  const { t, i18n } = useLingui()
  const label = i18n._(scheduleStatusLabels[schedule.status])
  const sentAt = schedule.sentAt ? formatDateTime(schedule.sentAt) : null
  const reason = schedule.error ?? t`unknown reason`
  const explanation =
    schedule.status === 'ENVIADA'
      ? sentAt
        ? t`Sent on ${sentAt}. A message already sent can no longer be changed.`
        : t`A message already sent can no longer be changed.`
      : schedule.status === 'AGENDADA'
        ? t`This message is being sent and can no longer be changed.`
        : schedule.status === 'ERRO'
          ? t`The last attempt to send it failed (${reason}). Saving schedules it again.`
          : schedule.status === 'CANCELADA'
            ? t`The customer replied before it went out, so it was cancelled. Saving schedules it again.`
            : schedule.status === 'PENDENTE' && schedule.error
              ? t`The last occurrence could not be sent (${reason}). The next one is scheduled.`
              : null
  return (
    <div className="schedule-status-notice">
      <span className={`chip schedule-status ${scheduleStatusClass(schedule.status)}`}>{label}</span>
      {explanation ? <p className="schedule-muted">{explanation}</p> : null}
    </div>
  )
}
