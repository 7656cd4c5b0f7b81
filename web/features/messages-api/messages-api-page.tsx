// /messages-api (§2 "Messages API doc", §5, §6): how other systems send WhatsApp messages with a
// connection's token. Two forms, a text and a media one, that call POST /api/messages/send as another
// system would, each showing its request as curl and the answer it got.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { FileTrigger, Form } from 'react-aria-components'
import { Button } from '../../components/button.tsx'
import { UploadIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import { checkSendForm, curlOf, sendThroughApi, type SendForm, type SendFormErrors } from './send-request.ts'

export function MessagesApiPage() {
  const { t } = useLingui()
  return (
    <div className="admin-page messages-api-page">
      <PageHeader title={t`Messages API`} />
      <section className="messages-api-intro">
        <p>{t`Other systems send WhatsApp messages through a connection with POST /api/messages/send. Authenticate with the connection's token (Connections, edit, token) as a Bearer token. The number has the country and area code, digits only.`}</p>
        <p>
          {t`The full reference is in the API documentation:`} <a href="/swagger">/swagger</a>
        </p>
      </section>
      <div className="messages-api-forms">
        <SendPanel kind="text" />
        <SendPanel kind="media" />
      </div>
    </div>
  )
}

type Answer = { status: number; body: unknown }

function SendPanel({ kind }: { kind: 'text' | 'media' }) {
  const { t, i18n } = useLingui()
  const [form, setForm] = useState<SendForm>({ token: '', number: '', body: '', file: null })
  const [errors, setErrors] = useState<SendFormErrors>({})
  const [answer, setAnswer] = useState<Answer | null>(null)
  const [sending, setSending] = useState(false)
  const change = (field: 'token' | 'number' | 'body', value: string) => {
    setForm((current) => ({ ...current, [field]: value }))
    setErrors((current) => ({ ...current, [field]: undefined }))
  }
  const title = kind === 'text' ? t`Send a text message` : t`Send a media message`
  const headingId = `messages-api-${kind}`
  const required = t`Required`

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = checkSendForm(form, kind)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setSending(true)
    try {
      const result = await sendThroughApi(form, kind)
      setAnswer(result)
      if (result.status === 200) showToast('success', t`Message sent.`)
      else {
        const code = result.body && typeof result.body === 'object' && 'error' in result.body ? String(result.body.error) : `HTTP_${result.status}`
        showToast('error', errorMessage(i18n, code))
      }
    } catch {
      showToast('error', errorMessage(i18n, 'ERR_NETWORK'))
    } finally {
      setSending(false)
    }
  }

  return (
    <section className="messages-api-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <Form onSubmit={submit} validationBehavior="aria" className="messages-api-form">
        <TextField label={t`Token`} value={form.token} onChange={(value) => change('token', value)} error={errors.token ? required : undefined} isRequired autoComplete="off" />
        <TextField
          label={t`Number`}
          value={form.number}
          onChange={(value) => change('number', value)}
          error={errors.number ? required : undefined}
          placeholder="5511999990000"
          inputMode="numeric"
          isRequired
        />
        <TextAreaField
          label={kind === 'text' ? t`Message` : t`Caption`}
          value={form.body}
          onChange={(value) => change('body', value)}
          error={errors.body ? required : undefined}
          isRequired={kind === 'text'}
        />
        {kind === 'media' ? (
          <div className="field">
            <div className="messages-api-file">
              <FileTrigger
                onSelect={(files) => {
                  const file = files?.[0] ?? null
                  setForm((current) => ({ ...current, file }))
                  setErrors((current) => ({ ...current, file: undefined }))
                }}
              >
                <Button variant="secondary">
                  <UploadIcon />
                  {form.file ? t`Replace file` : t`Choose file`}
                </Button>
              </FileTrigger>
              {form.file ? <span className="messages-api-file-name">{form.file.name}</span> : null}
            </div>
            {errors.file ? (
              <p className="field-error" role="alert">
                {t`Choose a file to send.`}
              </p>
            ) : null}
          </div>
        ) : null}
        <div className="messages-api-actions">
          <Button type="submit" isDisabled={sending}>
            {t`Send`}
          </Button>
        </div>
      </Form>
      <h3 className="messages-api-subtitle">{t`Request`}</h3>
      <pre className="messages-api-code" aria-label={t`${title}: curl`}>
        <code>{curlOf(location.origin, form, kind)}</code>
      </pre>
      {answer ? (
        <>
          <h3 className="messages-api-subtitle">{t`Response ${answer.status}`}</h3>
          <pre className="messages-api-code" aria-label={t`${title}: response`}>
            <code>{JSON.stringify(answer.body, null, 2)}</code>
          </pre>
        </>
      ) : null}
    </section>
  )
}
