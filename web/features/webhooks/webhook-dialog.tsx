// The webhook form (add and edit): the https URL, a description, and the events it receives. The
// server checks the URL against the outbound policy (no internal addresses) and says why in a 422.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Checkbox, CheckboxGroup, Form, Label } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { FieldHelp } from '../../components/field-help.tsx'
import { CheckIcon } from '../../components/icons.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { refusalErrors } from '../../forms/refusal-errors.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { webhookEventLabel } from './webhook-events.ts'
import type { CreatedWebhook, WebhookRow } from './webhook-types.ts'

type Field = 'url' | 'events' | 'description'
type Errors = Partial<Record<Field | 'form', string>>

type WebhookFormProps = {
  webhook: WebhookRow | null
  events: string[]
  onSaved: (webhook: WebhookRow) => void
  onCreated: (webhook: CreatedWebhook) => void
  onDone: () => void
}

function WebhookForm({ webhook, events, onSaved, onCreated, onDone }: WebhookFormProps) {
  const { t, i18n } = useLingui()
  const [url, setUrl] = useState(webhook?.url ?? '')
  const [description, setDescription] = useState(webhook?.description ?? '')
  const [chosen, setChosen] = useState<string[]>(webhook?.events ?? [])
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const messages: Record<Field, string> = {
    url: t`Enter an https URL that is reachable from the internet.`,
    events: t`Choose at least one event.`,
    description: t`Use at most 200 characters.`,
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = {}
    if (!url.trim()) found.url = messages.url
    if (chosen.length === 0) found.events = messages.events
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const body = { url: url.trim(), events: chosen, description: description.trim() }
      if (webhook) {
        const { data, error } = await api.webhooks({ id: webhook.id }).put(body)
        if (error || !data) throw error
        onSaved(data)
        showToast('success', t`Webhook saved.`)
      } else {
        const { data, error } = await api.webhooks.post(body)
        if (error || !data) throw error
        onCreated(data)
      }
      onDone()
    } catch (failure) {
      const refusal = apiErrorOf(failure)
      // The server's reason for a refused URL (an internal address, http) is more useful than ours.
      const urlReason = refusal.fields.find((field) => field.field === 'url')?.message
      const fromServer: Errors = refusalErrors(refusal, messages, (code) => errorMessage(i18n, code))
      if (urlReason) fromServer.url = `${messages.url} (${urlReason})`
      if (fromServer.form) showToast('error', fromServer.form)
      setErrors(fromServer)
    } finally {
      setPending(false)
    }
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <div className="form-grid">
        <TextField
          label={t`URL`}
          name="url"
          type="url"
          className="full"
          value={url}
          onChange={(value) => {
            setUrl(value)
            setErrors(({ url: _fixed, ...rest }) => rest)
          }}
          error={errors.url}
          placeholder="https://"
          isRequired
          autoFocus
          maxLength={2000}
        />
        <TextField label={t`Description`} name="description" className="full" value={description} onChange={setDescription} error={errors.description} maxLength={200} />
        <CheckboxGroup
          className="field full"
          value={chosen}
          onChange={(value) => {
            setChosen(value)
            setErrors(({ events: _fixed, ...rest }) => rest)
          }}
          isInvalid={Boolean(errors.events)}
          validationBehavior="aria"
        >
          <Label className="field-label">{t`Events`}</Label>
          <div className="webhook-event-choices">
            {events.map((name) => (
              <Checkbox key={name} value={name} className="queue-choice">
                {({ isSelected }) => (
                  <>
                    <span className="queue-choice-box" aria-hidden="true">
                      {isSelected ? <CheckIcon /> : null}
                    </span>
                    <span>
                      {webhookEventLabel(i18n, name)} <code className="webhook-event-name">{name}</code>
                    </span>
                  </>
                )}
              </Checkbox>
            ))}
          </div>
          <FieldHelp error={errors.events} />
        </CheckboxGroup>
      </div>
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type WebhookDialogProps = {
  isOpen: boolean
  webhook: WebhookRow | null
  events: string[]
  onOpenChange: (isOpen: boolean) => void
  onSaved: (webhook: WebhookRow) => void
  onCreated: (webhook: CreatedWebhook) => void
}

export function WebhookDialog({ isOpen, webhook, events, onOpenChange, onSaved, onCreated }: WebhookDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={webhook ? t`Edit webhook` : t`Add webhook`} isOpen={isOpen} onOpenChange={onOpenChange} size="large">
      <WebhookForm key={webhook?.id ?? 'new'} webhook={webhook} events={events} onSaved={onSaved} onCreated={onCreated} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
