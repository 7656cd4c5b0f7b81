// The prompt modal (§2 Modals "prompt", §3 Prompt, §5 Prompt): name, model (GPT 3.5 turbo / GPT 4.0 suggested, any name typed),
// queue, the prompt text, the OpenAI key, max tokens, temperature (0 to 1, step 0.1) and max messages.
// §5 is checked before sending: with no queue the form says 'Select a queue' and saves nothing. An
// edit loads the prompt again (GET /prompt/{id}); its key comes masked: left empty, it is kept.
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { PasswordField } from '../../components/password-field.tsx'
import { Select } from '../../components/select.tsx'
import { SwitchField } from '../../components/switch-field.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { refusalErrors } from '../../forms/refusal-errors.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { PROMPT_LIMITS, promptBody, promptFormOf, promptProblems, type PromptField, type PromptFormValues } from './prompt-form.ts'
import { PromptModelField } from './prompt-model-field.tsx'
import { PromptNumberField } from './prompt-number-field.tsx'
import { toPromptRow, type PromptRow } from './prompt-row.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export type PromptQueueChoice = { id: number; name: string }

type Errors = Partial<Record<PromptField | 'form', string>>

type PromptFormProps = { prompt: PromptRow | null; queues: PromptQueueChoice[]; onSaved: (prompt: PromptRow) => void; onDone: () => void }

function PromptForm({ prompt, queues, onSaved, onDone }: PromptFormProps) {
  const { t, i18n } = useLingui()
  const [values, setValues] = useState<PromptFormValues>(() => promptFormOf(prompt))
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const messages: Record<PromptField, string> = {
    name: t`Enter a name of 5 to 100 characters.`,
    prompt: t`Write the prompt: at least 50 characters.`,
    model: t`Enter a model name: letters, digits and . _ : / @ + - (at most 200).`,
    maxTokens: t`Enter a whole number from 1 to 4096.`,
    temperature: t`Enter a number from 0 to 1.`,
    apiKey: t`Enter the OpenAI API key.`,
    queueId: t`Select a queue.`,
    maxMessages: t`Enter a whole number from 1 to 100.`,
    baseUrl: t`Enter an http(s) address the server is allowed to reach, or leave it empty.`,
  }

  const set = <Key extends keyof PromptFormValues>(key: Key, value: PromptFormValues[Key]) => {
    setValues((current) => ({ ...current, [key]: value }))
    // A field's error is about the value it had: changing it clears the error until the next check.
    setErrors(({ [key]: _fixed, ...rest }) => rest)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const problems = promptProblems(values)
    const found: Errors = Object.fromEntries(problems.map((field) => [field, messages[field]]))
    setErrors(found)
    const body = promptBody(values)
    if (!body) {
      // §5 'promptModal.setor': the missing queue is also said out loud, as the original toast did.
      if (problems.includes('queueId')) showToast('error', messages.queueId)
      return
    }
    setPending(true)
    try {
      const { data, error } = prompt ? await api.prompt({ id: prompt.id }).put(body) : await api.prompt.post({ ...body, apiKey: body.apiKey ?? '' })
      if (error || !data) {
        const fromServer: Errors = refusalErrors(apiErrorOf(error), messages, (code) => errorMessage(i18n, code), { code: 'ERR_PROMPT_NAME_ALREADY_EXISTS', field: 'name' })
        if (fromServer.form) showToast('error', fromServer.form)
        setErrors(fromServer)
        return
      }
      onSaved(toPromptRow(data))
      showToast('success', prompt ? t`Prompt saved.` : t`Prompt created.`)
      onDone()
    } catch (failure) {
      const text = toastFailure(i18n, failure)
      setErrors({ form: text })
    } finally {
      setPending(false)
    }
  }

  const queueOptions = queues.map((queue) => ({ id: String(queue.id), label: queue.name }))
  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <div className="form-grid">
        <TextField
          label={t`Name`}
          name="name"
          className="full"
          value={values.name}
          onChange={(value) => set('name', value)}
          error={errors.name}
          isRequired
          autoFocus
          maxLength={PROMPT_LIMITS.nameMax}
        />
        <div className="prompt-choices-row full">
          <PromptModelField value={values.model} onChange={(model) => set('model', model)} error={errors.model} />
          <Select
            label={t`Queue`}
            name="queueId"
            options={queueOptions}
            value={values.queueId === null ? null : String(values.queueId)}
            onChange={(key) => set('queueId', key === null ? null : Number(key))}
            placeholder={t`Select a queue`}
            error={errors.queueId}
            isRequired
          />
        </div>
        <TextAreaField
          label={t`Prompt`}
          name="prompt"
          value={values.prompt}
          onChange={(value) => set('prompt', value)}
          error={errors.prompt}
          description={t`The instructions the AI follows when it answers the customers of the queue.`}
          maxLength={PROMPT_LIMITS.promptMax}
          rows={6}
          isRequired
        />
        <PasswordField
          label={t`OpenAI API key`}
          name="apiKey"
          className="full"
          value={values.apiKey}
          onChange={(value) => set('apiKey', value)}
          error={errors.apiKey}
          isRequired={values.storedKey === ''}
          description={values.storedKey === '' ? undefined : t`A key is stored (${values.storedKey}). Enter a new key to replace it, or leave this empty to keep it.`}
          maxLength={PROMPT_LIMITS.apiKeyMax}
          autoComplete="off"
        />
        <PromptNumberField
          label={t`Max tokens`}
          name="maxTokens"
          value={values.maxTokens}
          onChange={(value) => set('maxTokens', value)}
          minValue={1}
          maxValue={PROMPT_LIMITS.maxTokens}
          step={1}
          fractionDigits={0}
          error={errors.maxTokens}
          description={t`The longest answer, in tokens.`}
        />
        <PromptNumberField
          label={t`Temperature`}
          name="temperature"
          value={values.temperature}
          onChange={(value) => set('temperature', value)}
          minValue={0}
          maxValue={1}
          step={0.1}
          fractionDigits={1}
          error={errors.temperature}
          description={t`0 keeps answers focused, 1 makes them more varied.`}
        />
        <PromptNumberField
          label={t`Max messages`}
          name="maxMessages"
          value={values.maxMessages}
          onChange={(value) => set('maxMessages', value)}
          minValue={1}
          maxValue={PROMPT_LIMITS.maxMessages}
          step={1}
          fractionDigits={0}
          error={errors.maxMessages}
          description={t`How many of the latest messages the AI reads.`}
        />
        <TextField
          label={t`API address (optional)`}
          name="baseUrl"
          className="full"
          value={values.baseUrl}
          onChange={(value) => set('baseUrl', value)}
          error={errors.baseUrl}
          placeholder="https://api.openai.com/v1"
          description={t`An OpenAI-compatible API, such as a self-hosted model. Empty: the server's default.`}
          maxLength={500}
        />
        <div className="full">
          <SwitchField isSelected={values.transcribeAudio} onChange={(value) => set('transcribeAudio', value)}>
            {t`Transcribe voice notes and answer them`}
          </SwitchField>
        </div>
      </div>
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

/** An edit's form waits for the prompt as stored (its key masked); a failed load closes the dialog with a toast. */
function EditPromptForm({ promptId, ...props }: Omit<PromptFormProps, 'prompt'> & { promptId: number }) {
  const { t, i18n } = useLingui()
  const [prompt, setPrompt] = useState<PromptRow | null>(null)
  const { onDone } = props
  useEffect(() => {
    let current = true
    api
      .prompt({ id: promptId })
      .get()
      .then(({ data, error }) => {
        if (!current) return
        if (error || !data) {
          toastFailure(i18n, error)
          onDone()
          return
        }
        setPrompt(toPromptRow(data))
      })
      .catch((failure: unknown) => {
        if (!current) return
        toastFailure(i18n, failure)
        onDone()
      })
    return () => {
      current = false
    }
  }, [promptId, i18n, onDone])
  if (!prompt) return <p role="status">{t`Loading…`}</p>
  return <PromptForm prompt={prompt} {...props} />
}

export type PromptDialogProps = {
  isOpen: boolean
  /** null: a new prompt. */
  promptId: number | null
  queues: PromptQueueChoice[]
  onOpenChange: (isOpen: boolean) => void
  onSaved: (prompt: PromptRow) => void
}

export function PromptDialog({ isOpen, promptId, queues, onOpenChange, onSaved }: PromptDialogProps) {
  const { t } = useLingui()
  // A stable close for the edit form's load effect, whatever closure the page passes on each render.
  const latest = useRef(onOpenChange)
  latest.current = onOpenChange
  const close = useCallback(() => latest.current(false), [])
  const props = { queues, onSaved, onDone: close }
  return (
    <Dialog title={promptId === null ? t`New prompt` : t`Edit prompt`} isOpen={isOpen} onOpenChange={onOpenChange} size="large">
      {/* Keyed by the prompt: opening another one starts from its own values. */}
      {promptId === null ? <PromptForm key="new" prompt={null} {...props} /> : <EditPromptForm key={promptId} promptId={promptId} {...props} />}
    </Dialog>
  )
}
