// The add/edit connection modal (§2, §3): general data, messages, chatbot and expiry (with the AI
// prompt and the integration that answer on it, where the plan has them), and for an existing
// connection its external-API token. Checked against §5 before sending; the server's
// refusals land on their fields (the tab holding the first one opens) and as a toast (§8).
import type { MessageDescriptor } from '@lingui/core'
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useState, type FormEvent } from 'react'
import { Form, Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components'
import type { ProviderName } from '../../../src/modules/whatsapp/model.ts'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { DialogFooter } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { AiReferenceFields } from '../../components/ai-reference-fields.tsx'
import { QueueChoices, type QueueChoice } from '../../components/queue-choices.tsx'
import { Select } from '../../components/select.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import { planFeaturesAtom } from '../../state/session.ts'
import { toConnection, type Connection } from './connection.ts'
import {
  connectionBodyOf,
  connectionFormOf,
  emptyConnectionForm,
  fieldErrorsOf,
  firstTabWithError,
  validateConnectionForm,
  type ConnectionFormValues,
  type ConnectionTab,
  type FieldErrors,
  type ShownAiFields,
} from './connection-form.ts'
import { AmountField, SwitchField } from './form-controls.tsx'
import { availableProviders } from './providers.ts'
import { TokenPanel } from './token-panel.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

export type ConnectionDialogProps = {
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  /** null: a new connection. */
  connectionId: number | null
  queues: QueueChoice[]
  onSaved: (connection: Connection, created: boolean) => void
}

const NO_QUEUE = 'none'

export function ConnectionDialog({ isOpen, onOpenChange, connectionId, queues, onSaved }: ConnectionDialogProps) {
  const { t, i18n } = useLingui()
  const [values, setValues] = useState<ConnectionFormValues>(emptyConnectionForm)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [tab, setTab] = useState<ConnectionTab>('general')
  const [token, setToken] = useState<string | undefined>()
  const [loading, setLoading] = useState(false)
  const [saving, setSaving] = useState(false)
  const [providers, setProviders] = useState<ProviderName[]>(['beta'])
  const features = useAtomValue(planFeaturesAtom)
  // Without the plan's feature the field is not there at all (nor sent): its choices would be empty.
  const shown: ShownAiFields = { prompt: features?.useOpenAi === true, integration: features?.useIntegrations === true }

  useEffect(() => {
    if (!isOpen) return
    let current = true
    setErrors({})
    setTab('general')
    setToken(undefined)
    void availableProviders().then((offered) => current && setProviders(offered))
    if (connectionId === null) {
      setValues(emptyConnectionForm())
      return
    }
    // The list's row may be older than the server's (another admin edited it): edit what the server has.
    setLoading(true)
    void api
      .whatsapp({ id: connectionId })
      .get()
      .then(({ data, error }) => {
        if (!current) return
        setLoading(false)
        if (error) {
          toastFailure(i18n, error)
          onOpenChange(false)
          return
        }
        setValues(connectionFormOf(toConnection(data)))
        setToken(data.token)
      })
    return () => {
      current = false
    }
    // i18n and onOpenChange change identity with the language or the parent's render, not the connection.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isOpen, connectionId])

  const set = <Field extends keyof ConnectionFormValues>(field: Field, value: ConnectionFormValues[Field]) => {
    setValues((current) => ({ ...current, [field]: value }))
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current))
  }
  const errorOf = (field: keyof ConnectionFormValues): string | undefined => {
    const error = errors[field]
    return error === undefined ? undefined : typeof error === 'string' ? error : i18n._(error as MessageDescriptor)
  }

  const refuse = (found: FieldErrors) => {
    setErrors(found)
    const first = firstTabWithError(found)
    if (first) setTab(first)
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = validateConnectionForm(values)
    if (Object.values(found).some(Boolean)) {
      refuse(found)
      return
    }
    setSaving(true)
    const body = connectionBodyOf(values, shown)
    const { data, error } = connectionId === null ? await api.whatsapp.post(body) : await api.whatsapp({ id: connectionId }).put(body)
    setSaving(false)
    if (error) {
      const apiError = apiErrorOf(error)
      const onFields = fieldErrorsOf(apiError)
      refuse(onFields)
      // A refusal about a field of ours says it in our words; the rest through the §8 catalogue.
      const special: Record<string, string> = { ERR_WAPP_NAME_ALREADY_EXISTS: t`Another connection already has this name.` }
      showToast('error', special[apiError.code] ?? errorMessage(i18n, apiError.code))
      return
    }
    showToast('success', t`Connection saved.`)
    onSaved(toConnection(data), connectionId === null)
    onOpenChange(false)
  }

  const providerLabels: Record<ProviderName, string> = { beta: t`WhatsApp (Baileys)`, simulator: t`Simulator (test and demo)` }
  // An edited connection on a provider the server no longer offers keeps it listed, so nothing changes by accident.
  const providerOptions = [...new Set<ProviderName>([...providers, values.provider])].map((id) => ({ id, label: providerLabels[id] }))
  const transferOptions = [{ id: NO_QUEUE, label: t`No transfer` }, ...queues.map((queue) => ({ id: String(queue.id), label: queue.name }))]
  const tabError = (name: ConnectionTab) => Object.entries(errors).some(([field, error]) => error !== undefined && tabOfFieldName(field) === name)

  return (
    <Dialog title={connectionId === null ? t`Add WhatsApp connection` : t`Edit WhatsApp connection`} isOpen={isOpen} onOpenChange={onOpenChange} size="large">
      {loading ? (
        <p role="status" className="connection-loading">
          {t`Loading…`}
        </p>
      ) : (
        <Form onSubmit={(event) => void submit(event)} validationBehavior="aria" className="connection-form">
          <Tabs selectedKey={tab} onSelectionChange={(key: Key) => setTab(key as ConnectionTab)} className="connection-tabs">
            <TabList aria-label={t`Connection sections`} className="tab-list">
              <Tab id="general" className="tab" data-error={tabError('general') || undefined}>
                {t`General`}
              </Tab>
              <Tab id="messages" className="tab" data-error={tabError('messages') || undefined}>
                {t`Messages`}
              </Tab>
              <Tab id="bot" className="tab" data-error={tabError('bot') || undefined}>
                {t`Chatbot and expiry`}
              </Tab>
              {connectionId !== null ? (
                <Tab id="token" className="tab">
                  {t`API token`}
                </Tab>
              ) : null}
            </TabList>
            {/* Panels stay mounted: a field with an error keeps its value and message while another tab shows. */}
            <TabPanel id="general" className="tab-panel connection-tab-panel form-grid" shouldForceMount>
              <TextField label={t`Name`} value={values.name} onChange={(value) => set('name', value)} error={errorOf('name')} isRequired autoFocus maxLength={50} />
              <Select
                label={t`Provider`}
                options={providerOptions}
                value={values.provider}
                onChange={(key) => key !== null && set('provider', key as ProviderName)}
                error={errorOf('provider')}
              />
              <SwitchField
                label={t`Default connection`}
                isSelected={values.isDefault}
                onChange={(value) => set('isDefault', value)}
                error={errorOf('isDefault')}
                description={t`Used when a ticket is opened without choosing a connection.`}
              />
              <QueueChoices
                label={t`Queues`}
                queues={queues}
                value={values.queueIds}
                onChange={(ids) => set('queueIds', ids)}
                emptyText={t`No queues yet. Create them on the queues page.`}
                error={errorOf('queueIds')}
              />
              <Select
                label={t`Transfer queue`}
                options={transferOptions}
                value={values.transferQueueId === null ? NO_QUEUE : String(values.transferQueueId)}
                onChange={(key) => set('transferQueueId', key === null || key === NO_QUEUE ? null : Number(key))}
                error={errorOf('transferQueueId')}
              />
              <AmountField
                label={t`Transfer after (minutes)`}
                value={values.timeToTransfer}
                onChange={(value) => set('timeToTransfer', value)}
                error={errorOf('timeToTransfer')}
                isDisabled={values.transferQueueId === null}
                description={t`A ticket waiting without a queue moves to the transfer queue after this time. Empty: never.`}
              />
            </TabPanel>
            <TabPanel id="messages" className="tab-panel connection-tab-panel form-grid" shouldForceMount>
              <TextAreaField
                label={t`Greeting message`}
                value={values.greetingMessage}
                onChange={(value) => set('greetingMessage', value)}
                error={errorOf('greetingMessage')}
                description={t`Required when the connection serves more than one queue: it heads the menu of queues.`}
              />
              <TextAreaField label={t`Completion message`} value={values.complationMessage} onChange={(value) => set('complationMessage', value)} error={errorOf('complationMessage')} />
              <TextAreaField label={t`Out of hours message`} value={values.outOfHoursMessage} onChange={(value) => set('outOfHoursMessage', value)} error={errorOf('outOfHoursMessage')} />
              <TextAreaField label={t`Rating message`} value={values.ratingMessage} onChange={(value) => set('ratingMessage', value)} error={errorOf('ratingMessage')} />
              <TextAreaField
                label={t`Message when a ticket expires`}
                value={values.expiresInactiveMessage}
                onChange={(value) => set('expiresInactiveMessage', value)}
                error={errorOf('expiresInactiveMessage')}
                description={t`Sent when an inactive ticket is closed by the expiry below.`}
              />
            </TabPanel>
            <TabPanel id="bot" className="tab-panel connection-tab-panel form-grid" shouldForceMount>
              <AmountField
                label={t`Close inactive tickets after (minutes)`}
                value={values.expiresTicket}
                onChange={(value) => set('expiresTicket', value ?? Number.NaN)}
                error={errorOf('expiresTicket')}
                description={t`0: never.`}
              />
              <AmountField
                label={t`Chatbot repetitions`}
                value={values.maxUseBotQueues}
                onChange={(value) => set('maxUseBotQueues', value ?? Number.NaN)}
                error={errorOf('maxUseBotQueues')}
                description={t`How many times the bot repeats its menu before the ticket waits for a person. 0: no limit.`}
              />
              <AmountField
                label={t`Chatbot quiet time (minutes)`}
                value={values.timeUseBotQueues}
                onChange={(value) => set('timeUseBotQueues', value ?? Number.NaN)}
                error={errorOf('timeUseBotQueues')}
                description={t`Within this time of its last message the bot does not repeat itself. 0: always answers.`}
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
            {connectionId !== null ? (
              <TabPanel id="token" className="tab-panel connection-tab-panel">
                <TokenPanel connectionId={connectionId} token={token} onTokenChange={setToken} />
              </TabPanel>
            ) : null}
          </Tabs>
          <DialogFooter onCancel={() => onOpenChange(false)} pending={saving} saveLabel={connectionId === null ? t`Add` : t`Save`} />
        </Form>
      )}
    </Dialog>
  )
}

function tabOfFieldName(field: string): ConnectionTab | undefined {
  return firstTabWithError({ [field]: 'x' } as FieldErrors)
}
