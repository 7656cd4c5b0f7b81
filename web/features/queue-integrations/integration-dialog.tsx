// The integration modal (§2 Modals "integration"): the type, the name, and the fields of the type:
// Dialogflow's project, service-account key and language; the URL of n8n and webhooks; a typebot's URL,
// slug and settings. §5 is checked before sending; the server's refusals land on their fields.
// §7's "test session" talks to the integration with the fields as they are (integration-test-panel.tsx).
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { Select } from '../../components/select.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { refusalErrors } from '../../forms/refusal-errors.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import {
  emptyIntegrationForm,
  integrationBodyOf,
  integrationFormOf,
  integrationLanguages,
  integrationLimits,
  integrationTypes,
  validateIntegrationForm,
  type IntegrationField,
  type IntegrationFormValues,
  type IntegrationProblem,
} from './integration-form.ts'
import { integrationTypeLabels } from './integration-logo.tsx'
import { IntegrationTestPanel } from './integration-test-panel.tsx'
import type { IntegrationRow } from './integration-row.ts'
import { toastFailure } from '../../components/failure-toast.ts'

type Errors = Partial<Record<IntegrationField | 'form', string>>

type IntegrationFormProps = { integration: IntegrationRow | null; onSaved: (row: IntegrationRow, action: 'create' | 'update') => void; onDone: () => void }

function IntegrationForm({ integration, onSaved, onDone }: IntegrationFormProps) {
  const { t, i18n } = useLingui()
  const [values, setValues] = useState<IntegrationFormValues>(() => (integration ? integrationFormOf(integration) : emptyIntegrationForm()))
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const { min: minMinutes, max: maxMinutes } = integrationLimits.typebotExpires
  const { min: minDelay, max: maxDelay } = integrationLimits.typebotDelayMessage
  const texts: Record<IntegrationField, Record<IntegrationProblem, string>> = {
    name: { required: t`Enter a name of 2 to 50 characters.`, invalid: t`Enter a name of 2 to 50 characters.` },
    projectName: { required: t`Enter the Dialogflow project ID.`, invalid: t`At most 100 characters.` },
    jsonContent: { required: t`Paste the service account key (JSON).`, invalid: t`The key must be a JSON object, as Google provides it.` },
    language: { required: t`Choose the agent's language.`, invalid: t`Choose the agent's language.` },
    urlN8N: { required: t`Enter the URL.`, invalid: t`Enter a full address starting with http:// or https://.` },
    typebotSlug: { required: t`Enter the typebot's slug.`, invalid: t`Use only letters, digits, dots, dashes and underscores (at most 200).` },
    typebotExpires: {
      required: t`Enter a whole number of minutes from ${minMinutes} to ${maxMinutes}.`,
      invalid: t`Enter a whole number of minutes from ${minMinutes} to ${maxMinutes}.`,
    },
    typebotDelayMessage: {
      required: t`Enter a whole number of milliseconds from ${minDelay} to ${maxDelay}.`,
      invalid: t`Enter a whole number of milliseconds from ${minDelay} to ${maxDelay}.`,
    },
    typebotKeywordFinish: { required: t`At most 100 characters.`, invalid: t`At most 100 characters.` },
    typebotKeywordRestart: { required: t`At most 100 characters.`, invalid: t`At most 100 characters.` },
    typebotRestartMessage: { required: t`At most 1000 characters.`, invalid: t`At most 1000 characters.` },
    typebotUnknownMessage: { required: t`At most 1000 characters.`, invalid: t`At most 1000 characters.` },
  }

  const set = <Key extends keyof IntegrationFormValues>(key: Key, value: IntegrationFormValues[Key]) => {
    setValues((current) => ({ ...current, [key]: value }))
    setErrors((current) => (current[key as IntegrationField] ? { ...current, [key]: undefined } : current))
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const problems = validateIntegrationForm(values)
    const found: Errors = Object.fromEntries(Object.entries(problems).map(([field, problem]) => [field, texts[field as IntegrationField][problem]]))
    setErrors(found)
    if (Object.keys(found).length > 0) return
    const body = integrationBodyOf(values)
    setPending(true)
    try {
      const { data, error } = integration ? await api.queueIntegration({ id: integration.id }).put(body) : await api.queueIntegration.post(body)
      if (error || !data) {
        const invalidTexts = Object.fromEntries(Object.entries(texts).map(([field, text]) => [field, text.invalid])) as Record<IntegrationField, string>
        const fromServer: Errors = refusalErrors(apiErrorOf(error), invalidTexts, (code) => errorMessage(i18n, code), { code: 'ERR_INTEGRATION_NAME_ALREADY_EXISTS', field: 'name' })
        if (fromServer.form) showToast('error', fromServer.form)
        setErrors(fromServer)
        return
      }
      onSaved(data, integration ? 'update' : 'create')
      showToast('success', integration ? t`Integration edited.` : t`Integration added.`)
      onDone()
    } catch (failure) {
      const text = toastFailure(i18n, failure)
      setErrors({ form: text })
    } finally {
      setPending(false)
    }
  }

  const languageLabels: Record<(typeof integrationLanguages)[number], string> = { 'pt-BR': t`Portuguese (Brazil)`, en: t`English`, es: t`Spanish` }
  const type = values.type

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <div className="form-grid">
        <Select
          label={t`Type`}
          name="type"
          options={integrationTypes.map((id) => ({ id, label: integrationTypeLabels[id] }))}
          value={type}
          onChange={(key) => {
            const chosen = integrationTypes.find((candidate) => candidate === key)
            if (chosen) set('type', chosen)
          }}
          isRequired
        />
        <TextField label={t`Name`} name="name" value={values.name} onChange={(value) => set('name', value)} error={errors.name} isRequired autoFocus maxLength={50} />
        {type === 'dialogflow' ? (
          <>
            <TextField
              label={t`Project ID`}
              name="projectName"
              value={values.projectName}
              onChange={(value) => set('projectName', value)}
              error={errors.projectName}
              isRequired
              maxLength={integrationLimits.projectName}
            />
            <Select
              label={t`Language`}
              name="language"
              options={integrationLanguages.map((id) => ({ id, label: languageLabels[id] }))}
              value={values.language === '' ? null : values.language}
              onChange={(key) => {
                const chosen = integrationLanguages.find((candidate) => candidate === key)
                if (chosen) set('language', chosen)
              }}
              placeholder={t`Choose a language`}
              error={errors.language}
              isRequired
            />
            <TextAreaField
              label={t`Service account key (JSON)`}
              name="jsonContent"
              value={values.jsonContent}
              onChange={(value) => set('jsonContent', value)}
              error={errors.jsonContent}
              description={
                values.storedKey === ''
                  ? t`The key file Google Cloud gives for the agent's service account. It is stored encrypted and never shown again.`
                  : t`A key is stored (${values.storedKey}). Paste a new key to replace it, or leave this empty to keep it.`
              }
              rows={6}
              isRequired={values.storedKey === ''}
              maxLength={integrationLimits.jsonContent}
            />
          </>
        ) : (
          <TextField
            className="full"
            label={t`URL`}
            name="urlN8N"
            type="url"
            value={values.urlN8N}
            onChange={(value) => set('urlN8N', value)}
            error={errors.urlN8N}
            placeholder="https://"
            description={type === 'typebot' ? t`The address of your Typebot server.` : t`Messages are posted to this address.`}
            isRequired
            maxLength={integrationLimits.url}
          />
        )}
        {type === 'typebot' ? <TypebotFields values={values} errors={errors} set={set} /> : null}
        <IntegrationTestPanel values={values} integrationId={integration?.id ?? null} />
      </div>
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

type TypebotFieldsProps = {
  values: IntegrationFormValues
  errors: Errors
  set: <Key extends keyof IntegrationFormValues>(key: Key, value: IntegrationFormValues[Key]) => void
}

function TypebotFields({ values, errors, set }: TypebotFieldsProps) {
  const { t } = useLingui()
  const limits = integrationLimits
  return (
    <>
      <TextField
        label={t`Typebot slug`}
        name="typebotSlug"
        value={values.typebotSlug}
        onChange={(value) => set('typebotSlug', value)}
        error={errors.typebotSlug}
        isRequired
        maxLength={limits.typebotSlug}
      />
      <TextField
        label={t`Session expiry (minutes)`}
        name="typebotExpires"
        inputMode="numeric"
        value={values.typebotExpires}
        onChange={(value) => set('typebotExpires', value)}
        error={errors.typebotExpires}
        isRequired
      />
      <TextField
        label={t`Delay between messages (ms)`}
        name="typebotDelayMessage"
        inputMode="numeric"
        value={values.typebotDelayMessage}
        onChange={(value) => set('typebotDelayMessage', value)}
        error={errors.typebotDelayMessage}
        isRequired
      />
      <TextField
        label={t`Keyword to finish`}
        name="typebotKeywordFinish"
        value={values.typebotKeywordFinish}
        onChange={(value) => set('typebotKeywordFinish', value)}
        error={errors.typebotKeywordFinish}
        maxLength={limits.keyword}
      />
      <TextField
        label={t`Keyword to restart`}
        name="typebotKeywordRestart"
        value={values.typebotKeywordRestart}
        onChange={(value) => set('typebotKeywordRestart', value)}
        error={errors.typebotKeywordRestart}
        maxLength={limits.keyword}
      />
      <TextAreaField
        label={t`Restart message`}
        name="typebotRestartMessage"
        value={values.typebotRestartMessage}
        onChange={(value) => set('typebotRestartMessage', value)}
        error={errors.typebotRestartMessage}
        rows={2}
        maxLength={limits.message}
      />
      <TextAreaField
        label={t`Message for an unknown answer`}
        name="typebotUnknownMessage"
        value={values.typebotUnknownMessage}
        onChange={(value) => set('typebotUnknownMessage', value)}
        error={errors.typebotUnknownMessage}
        rows={2}
        maxLength={limits.message}
      />
    </>
  )
}

export type IntegrationDialogProps = {
  isOpen: boolean
  integration: IntegrationRow | null
  onOpenChange: (isOpen: boolean) => void
  onSaved: (row: IntegrationRow, action: 'create' | 'update') => void
}

export function IntegrationDialog({ isOpen, integration, onOpenChange, onSaved }: IntegrationDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={integration ? t`Edit integration` : t`New integration`} isOpen={isOpen} onOpenChange={onOpenChange} size="large">
      {/* Keyed by the integration: opening another one starts from its own values. */}
      <IntegrationForm key={integration?.id ?? 'new'} integration={integration} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
