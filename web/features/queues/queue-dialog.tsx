// The queue modal (§2 "Queues", size large): the data tab (name, colour from the palette, order,
// greeting and out-of-hours messages, and the AI prompt and the integration that answer in the queue),
// the attendance-time tab only when the setting scheduleType is 'queue', and the chatbot options of a
// saved queue. §5 checks before sending; the server's refusals land on their fields (the tab holding
// the first one opens) and as a toast (§8).
//
// The prompt select is there only on plans with useOpenAi, the integration select only with
// useIntegrations; a hidden one is not sent, so an edit keeps what the queue has.
import type { MessageDescriptor } from '@lingui/core'
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useMemo, useState, type FormEvent } from 'react'
import { Form, Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { AiReferenceFields } from '../../components/ai-reference-fields.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { WeekHoursEditor } from '../../components/week-hours-editor.tsx'
import { ColorPicker } from './color-picker.tsx'
import { OptionsEditor } from './options-editor.tsx'
import { firstFreeColor } from './palette.ts'
import { toQueueRow, type QueueRow } from './queue.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { planFeaturesAtom } from '../../state/session.ts'
import {
  emptyQueueForm,
  MAX_MESSAGE,
  queueBodyOf,
  queueErrorsOf,
  queueFormOf,
  tabOfField,
  validateQueueForm,
  type QueueFormErrors,
  type QueueFormValues,
  type QueueTab,
  type ShownQueueParts,
} from './queue-form.ts'

export type QueueDialogProps = {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  /** null: a new queue. */
  queue: QueueRow | null
  /** Every queue of the company: their colours are marked as taken. */
  queues: readonly QueueRow[]
  onSaved: (queue: QueueRow) => void
}

const FORM_ID = 'queue-form'

/** Whether the company's setting scheduleType is 'queue' (the attendance-time tab); null while asked. */
function useQueueSchedules(isOpen: boolean): boolean | null {
  const [byQueue, setByQueue] = useState<boolean | null>(null)
  useEffect(() => {
    if (!isOpen) return
    let current = true
    // Asked on every opening: the setting may have changed since (settings page, another admin).
    void api.settings.get().then(({ data }) => {
      if (current) setByQueue(data?.find((setting) => setting.key === 'scheduleType')?.value === 'queue')
    })
    return () => {
      current = false
    }
  }, [isOpen])
  return byQueue
}

type QueueFormProps = Omit<QueueDialogProps, 'isOpen'> & { withSchedules: boolean; onCreated: (queue: QueueRow) => void }

function QueueForm({ queue: initialQueue, queues, onOpenChange, onSaved, withSchedules, onCreated }: QueueFormProps) {
  const { t, i18n } = useLingui()
  // A new queue saved with "Save and add options" goes on in this dialog as an edit.
  const [queue, setQueue] = useState<QueueRow | null>(initialQueue)
  const [values, setValues] = useState<QueueFormValues>(() =>
    initialQueue ? queueFormOf(initialQueue) : emptyQueueForm(firstFreeColor(queues.map((other) => other.color))),
  )
  const [errors, setErrors] = useState<QueueFormErrors>({})
  const [tab, setTab] = useState<QueueTab>('data')
  const [saving, setSaving] = useState(false)
  const features = useAtomValue(planFeaturesAtom)
  const shown: ShownQueueParts = { schedules: withSchedules, prompt: features?.useOpenAi === true, integration: features?.useIntegrations === true }

  const usedBy = useMemo(
    () => new Map(queues.filter((other) => other.id !== queue?.id).map((other) => [other.color.trim().toLowerCase(), other.name] as const)),
    [queues, queue?.id],
  )
  // The hours tab can vanish (the setting changed): its panel must not stay selected.
  useEffect(() => {
    if (!withSchedules && tab === 'hours') setTab('data')
  }, [withSchedules, tab])

  const set = <Field extends keyof QueueFormValues>(field: Field, value: QueueFormValues[Field]) => {
    setValues((current) => ({ ...current, [field]: value }))
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current))
  }
  const setTime = (index: number, field: 'startTime' | 'endTime', value: string) => {
    setValues((current) => ({ ...current, schedules: current.schedules.map((entry, at) => (at === index ? { ...entry, [field]: value } : entry)) }))
    const key = `schedules.${index}.${field}`
    setErrors((current) => (current[key] ? { ...current, [key]: undefined } : current))
  }
  const errorOf = (field: string): string | undefined => {
    const error: MessageDescriptor | undefined = errors[field]
    return error ? i18n._(error) : undefined
  }
  const refuse = (found: QueueFormErrors) => {
    setErrors(found)
    const first = Object.keys(found).find((field) => found[field])
    if (first) setTab(tabOfField(first))
  }

  const save = async (stay: boolean) => {
    const found = validateQueueForm(values, withSchedules)
    if (Object.values(found).some(Boolean)) {
      refuse(found)
      return
    }
    setSaving(true)
    const body = queueBodyOf(values, shown)
    try {
      const { data, error } = queue ? await api.queue({ id: queue.id }).put(body) : await api.queue.post(body)
      if (error) {
        const failure = apiErrorOf(error)
        refuse(queueErrorsOf(failure))
        showToast('error', errorMessage(i18n, failure.code))
        return
      }
      const saved = toQueueRow(data)
      onSaved(saved)
      showToast('success', t`Queue saved.`)
      if (stay) {
        setQueue(saved)
        onCreated(saved)
        setTab('options')
      } else onOpenChange(false)
    } finally {
      setSaving(false)
    }
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    void save(false)
  }
  const tabError = (name: QueueTab) => Object.entries(errors).some(([field, error]) => error !== undefined && tabOfField(field) === name)

  return (
    <>
      <Tabs selectedKey={tab} onSelectionChange={(key: Key) => setTab(key as QueueTab)} className="queue-tabs">
        <TabList aria-label={t`Queue sections`} className="tab-list">
          <Tab id="data" className="tab" data-error={tabError('data') || undefined}>
            {t`Queue data`}
          </Tab>
          {withSchedules ? (
            <Tab id="hours" className="tab" data-error={tabError('hours') || undefined}>
              {t`Attendance time`}
            </Tab>
          ) : null}
          <Tab id="options" className="tab">
            {t`Chatbot options`}
          </Tab>
        </TabList>
        {/* Data and hours are one form; the options below save themselves and have forms of their own. */}
        <Form id={FORM_ID} onSubmit={submit} validationBehavior="aria">
          {/* Panels stay mounted: a field with an error keeps its value and message while another tab shows. */}
          <TabPanel id="data" className="tab-panel queue-tab-panel form-grid" shouldForceMount>
            <TextField label={t`Name`} value={values.name} onChange={(value) => set('name', value)} error={errorOf('name')} isRequired autoFocus maxLength={50} />
            <TextField
              label={t`Queue order`}
              value={values.orderQueue}
              onChange={(value) => set('orderQueue', value)}
              error={errorOf('orderQueue')}
              inputMode="numeric"
              maxLength={6}
              description={t`Position in the chatbot menu. Empty: after the numbered queues.`}
            />
            <TextField
              label={t`First response target (minutes)`}
              name="slaFirstResponseMinutes"
              value={values.slaFirstResponseMinutes}
              onChange={(value) => set('slaFirstResponseMinutes', value)}
              error={errorOf('slaFirstResponseMinutes')}
              inputMode="numeric"
              maxLength={5}
              description={t`Service level: business minutes until an agent takes the ticket. Empty: none.`}
            />
            <TextField
              label={t`Resolution target (minutes)`}
              name="slaResolutionMinutes"
              value={values.slaResolutionMinutes}
              onChange={(value) => set('slaResolutionMinutes', value)}
              error={errorOf('slaResolutionMinutes')}
              inputMode="numeric"
              maxLength={5}
              description={t`Service level: business minutes until the ticket is closed. Empty: none.`}
            />
            <ColorPicker value={values.color} onChange={(color) => set('color', color)} usedBy={usedBy} error={errorOf('color')} />
            <TextAreaField
              label={t`Greeting message`}
              value={values.greetingMessage}
              onChange={(value) => set('greetingMessage', value)}
              error={errorOf('greetingMessage')}
              description={t`Sent when the customer picks this queue, before its options.`}
              maxLength={MAX_MESSAGE}
            />
            <TextAreaField
              label={t`Out of hours message`}
              value={values.outOfHoursMessage}
              onChange={(value) => set('outOfHoursMessage', value)}
              error={errorOf('outOfHoursMessage')}
              description={withSchedules ? t`Sent outside the attendance time of this queue.` : t`Used when the attendance time is kept per queue (setting scheduleType).`}
              maxLength={MAX_MESSAGE}
            />
            <AiReferenceFields
              shown={shown}
              promptId={values.promptId}
              integrationId={values.integrationId}
              onPromptChange={(promptId) => set('promptId', promptId)}
              onIntegrationChange={(integrationId) => set('integrationId', integrationId)}
              errorOf={errorOf}
            />
          </TabPanel>
          {withSchedules ? (
            <TabPanel id="hours" className="tab-panel queue-tab-panel" shouldForceMount>
              <div className="queue-hours">
                <p className="field-description">{t`Outside these hours customers get the out-of-hours message. 00:00 to 00:00: closed all day.`}</p>
                <WeekHoursEditor week={values.schedules} onChange={setTime} errorOf={errorOf} idPrefix="queue-hours" />
              </div>
            </TabPanel>
          ) : null}
        </Form>
        <TabPanel id="options" className="tab-panel queue-tab-panel">
          {queue ? (
            <OptionsEditor queueId={queue.id} />
          ) : (
            <div className="queue-options">
              <p className="field-description">{t`Save the queue first: its chatbot options are added once it exists.`}</p>
              <Button variant="secondary" onPress={() => void save(true)} isPending={saving}>
                {t`Save and add options`}
              </Button>
            </div>
          )}
        </TabPanel>
      </Tabs>
      <div className="dialog-actions">
        <Button variant="secondary" onPress={() => onOpenChange(false)}>
          {t`Close`}
        </Button>
        <Button type="submit" form={FORM_ID} isPending={saving}>
          {t`Save`}
        </Button>
      </div>
    </>
  )
}

export function QueueDialog({ isOpen, onOpenChange, queue, queues, onSaved }: QueueDialogProps) {
  const { t } = useLingui()
  const withSchedules = useQueueSchedules(isOpen)
  // The modal unmounts its content when closed, so each opening starts a fresh form; only the title
  // outlives it, and a queue created with "Save and add options" is edited from then on.
  const [created, setCreated] = useState(false)
  useEffect(() => {
    if (isOpen) setCreated(false)
  }, [isOpen])
  return (
    <Dialog title={queue || created ? t`Edit queue` : t`Add queue`} isOpen={isOpen} onOpenChange={onOpenChange} size="large">
      <QueueForm
        queue={queue}
        queues={queues}
        onOpenChange={onOpenChange}
        onSaved={onSaved}
        withSchedules={withSchedules === true}
        onCreated={() => setCreated(true)}
      />
    </Dialog>
  )
}
