// §7 "test session" in the integration dialog: talks to the integration once with the form's current
// (unsaved) fields, or the saved integration with them over it, and shows what it answered to a test
// phrase, or why it could not (a clear message per ERR_ code).
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import type { IntegrationFormValues } from './integration-form.ts'

type Result = { messages: string[]; endsConversation: boolean; latencyMs: number }

export function IntegrationTestPanel({ values, integrationId }: { values: IntegrationFormValues; integrationId: number | null }) {
  const { t, i18n } = useLingui()
  const [phrase, setPhrase] = useState('')
  const [result, setResult] = useState<Result | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [pending, setPending] = useState(false)

  const run = async () => {
    setPending(true)
    setFailure(null)
    setResult(null)
    try {
      const { data, error } = await api.queueIntegration.testSession.post({
        ...(integrationId !== null ? { integrationId } : {}),
        type: values.type,
        projectName: values.projectName,
        jsonContent: values.jsonContent,
        ...(values.language !== '' ? { language: values.language } : {}),
        urlN8N: values.urlN8N,
        typebotSlug: values.typebotSlug,
        ...(phrase.trim() !== '' ? { text: phrase.trim() } : {}),
      })
      if (error || !data) {
        setFailure(errorMessage(i18n, apiErrorOf(error).code))
        return
      }
      setResult(data)
      showToast('success', t`Test session answered.`)
    } catch (caught) {
      setFailure(errorMessage(i18n, apiErrorOf(caught).code))
    } finally {
      setPending(false)
    }
  }

  return (
    <section className="integration-test full" aria-label={t`Test session`}>
      <div className="integration-test-row">
        <TextField label={t`Test phrase`} name="testPhrase" value={phrase} onChange={setPhrase} placeholder={t`Hello`} maxLength={256} />
        <Button variant="secondary" onPress={run} isDisabled={pending}>
          {pending ? t`Testing…` : t`Test session`}
        </Button>
      </div>
      <div aria-live="polite">
        {result !== null && (
          <div className="integration-test-result" role="status">
            <p>{result.messages.length === 0 ? t`Connected. The integration had nothing to say.` : t`Connected in ${result.latencyMs} ms. It answered:`}</p>
            {result.messages.length > 0 && (
              <ol className="try-prompt-turns">
                {result.messages.map((message, index) => (
                  <li key={index} className="chat-bubble chat-bubble-mine">
                    {message}
                  </li>
                ))}
              </ol>
            )}
            {result.endsConversation && <p className="muted-note">{t`This answer would hand the conversation back to the queue.`}</p>}
          </div>
        )}
        {failure !== null && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
      </div>
    </section>
  )
}
