// The sign-in's second step: a code from the authenticator app (or a recovery code), or, when policy
// requires 2FA the user has not set up yet, the enrolment first (QR, first code, recovery codes).
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { apiErrorOf } from '../../api/errors.ts'
import { publicApi } from '../../api/public-client.ts'
import { Button } from '../../components/button.tsx'
import { FormAlert } from '../../components/dialog-footer.tsx'
import { TextField } from '../../components/text-field.tsx'
import { EnrolmentPanel, RecoveryCodes, type Enrolment } from '../../features/two-factor/enrolment-panel.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'

export type Challenge = { token: string; purpose: 'verify' | 'setup' }
type SignedIn = NonNullable<Awaited<ReturnType<typeof publicApi.auth.login.post>>['data']>

/** The challenge a password step ended in, if it did. */
export function challengeOf(error: unknown): Challenge | undefined {
  const value = error && typeof error === 'object' && 'value' in error ? (error as { value: unknown }).value : undefined
  if (!value || typeof value !== 'object') return undefined
  const body = value as { error?: unknown; challengeToken?: unknown }
  if (typeof body.challengeToken !== 'string') return undefined
  if (body.error === 'ERR_TWO_FACTOR_REQUIRED') return { token: body.challengeToken, purpose: 'verify' }
  if (body.error === 'ERR_TWO_FACTOR_SETUP_REQUIRED') return { token: body.challengeToken, purpose: 'setup' }
  return undefined
}

export function TwoFactorStep({ challenge, onSignedIn, onRestart }: { challenge: Challenge; onSignedIn: (signedIn: SignedIn) => void; onRestart: () => void }) {
  const { t, i18n } = useLingui()
  const [error, setError] = useState<string>()
  const [enrolment, setEnrolment] = useState<Enrolment>()
  const [finished, setFinished] = useState<{ signedIn: SignedIn; codes: string[] }>()

  const failed = (failure: unknown) => {
    const code = apiErrorOf(failure).code
    // An expired challenge: start again from the password.
    setError(code === 'ERR_UNAUTHORIZED' ? t`This sign-in took too long. Enter your password again.` : errorMessage(i18n, code))
  }

  useEffect(() => {
    if (challenge.purpose !== 'setup') return
    void publicApi.auth.login['two-factor'].setup.post({ challengeToken: challenge.token }).then(({ data, error: refusal }) => (data ? setEnrolment(data) : failed(refusal)), failed)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [challenge])

  const send = async (code: string) => {
    setError(undefined)
    try {
      const { data, error: refusal } = await publicApi.auth.login['two-factor'].post({ challengeToken: challenge.token, code })
      if (refusal || !data) return failed(refusal)
      const { recoveryCodes, ...signedIn } = data
      if (recoveryCodes) setFinished({ signedIn, codes: recoveryCodes })
      else onSignedIn(signedIn)
    } catch (failure) {
      failed(failure)
    }
  }

  if (finished) return <RecoveryCodes codes={finished.codes} doneLabel={t`Continue`} onDone={() => onSignedIn(finished.signedIn)} />
  if (challenge.purpose === 'setup') {
    return (
      <div className="form">
        <p>{t`Your organisation requires two-factor authentication. Set it up to continue.`}</p>
        {enrolment ? <EnrolmentPanel enrolment={enrolment} onConfirm={send} error={error} /> : <FormAlert text={error} />}
        <Button variant="ghost" onPress={onRestart}>{t`Back`}</Button>
      </div>
    )
  }
  return <CodeForm onSubmit={send} error={error} onRestart={onRestart} />
}

function CodeForm({ onSubmit, error, onRestart }: { onSubmit: (code: string) => Promise<void>; error?: string; onRestart: () => void }) {
  const { t } = useLingui()
  const [code, setCode] = useState('')
  const [fieldError, setFieldError] = useState<string>()
  const [pending, setPending] = useState(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (code.trim().length < 6) {
      setFieldError(t`Enter the 6-digit code or a recovery code.`)
      return
    }
    setFieldError(undefined)
    setPending(true)
    try {
      await onSubmit(code.replace(/\s+/g, ''))
    } finally {
      setPending(false)
    }
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria" aria-label={t`Two-factor authentication`}>
      <p>{t`Enter the code shown by your authenticator app, or one of your recovery codes.`}</p>
      <FormAlert text={error} />
      <TextField label={t`Authentication code`} name="code" autoComplete="one-time-code" value={code} onChange={setCode} error={fieldError} isRequired autoFocus />
      <Button type="submit" isPending={pending} className="form-submit">
        {t`Verify`}
      </Button>
      <Button variant="ghost" onPress={onRestart}>{t`Back`}</Button>
    </Form>
  )
}
