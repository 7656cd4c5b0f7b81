// "Two-factor authentication" in the profile modal: enrol (QR, confirm, recovery codes shown once),
// or turn it off with a current code or the password.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { FormAlert } from '../../components/dialog-footer.tsx'
import { PasswordField } from '../../components/password-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import { EnrolmentPanel, RecoveryCodes, type Enrolment } from './enrolment-panel.tsx'

type Status = { enabled: boolean; required: boolean; recoveryCodesLeft: number }
// fromCodes: the codes were just dismissed; their button is gone, so the focus goes to the next action
// (left on nothing, it fell to the page outside the dialog, and Escape no longer closed it).
type Step = { kind: 'idle'; fromCodes?: boolean } | { kind: 'enrolling'; enrolment: Enrolment } | { kind: 'codes'; codes: string[] } | { kind: 'disabling' }

export function TwoFactorSection() {
  const { t, i18n } = useLingui()
  const [status, setStatus] = useState<Status | null>(null)
  const [step, setStep] = useState<Step>({ kind: 'idle' })
  const [error, setError] = useState<string>()
  const [pending, setPending] = useState(false)

  const load = async () => {
    const { data } = await api.auth['two-factor'].get()
    if (data) setStatus(data)
  }
  useEffect(() => {
    void load()
  }, [])

  const failed = (failure: unknown) => setError(errorMessage(i18n, apiErrorOf(failure).code))

  const start = async () => {
    setError(undefined)
    setPending(true)
    try {
      const { data, error: refusal } = await api.auth['two-factor'].setup.post()
      if (refusal || !data) failed(refusal)
      else setStep({ kind: 'enrolling', enrolment: data })
    } catch (failure) {
      failed(failure)
    } finally {
      setPending(false)
    }
  }

  const confirm = async (code: string) => {
    setError(undefined)
    const { data, error: refusal } = await api.auth['two-factor'].confirm.post({ code })
    if (refusal || !data) return failed(refusal)
    setStep({ kind: 'codes', codes: data.recoveryCodes })
    void load()
  }

  if (!status) return null
  const left = status.recoveryCodesLeft
  return (
    <section className="two-factor-section" aria-labelledby="two-factor-title">
      <h3 id="two-factor-title">{t`Two-factor authentication`}</h3>
      {step.kind === 'enrolling' ? (
        <EnrolmentPanel enrolment={step.enrolment} onConfirm={confirm} error={error} />
      ) : step.kind === 'codes' ? (
        <RecoveryCodes codes={step.codes} doneLabel={t`I saved them`} onDone={() => setStep({ kind: 'idle', fromCodes: true })} />
      ) : status.enabled ? (
        <>
          <p>
            {t`On: signing in asks for a code from your authenticator app.`} {t`Recovery codes left: ${left}`}
          </p>
          {step.kind === 'disabling' ? (
            <DisableForm
              onDone={() => {
                setStep({ kind: 'idle' })
                showToast('success', t`Two-factor authentication turned off.`)
                void load()
              }}
            />
          ) : (
            <Button variant="secondary" autoFocus={step.kind === 'idle' && step.fromCodes === true} onPress={() => setStep({ kind: 'disabling' })}>
              {t`Turn off two-factor authentication`}
            </Button>
          )}
        </>
      ) : (
        <>
          <p>{status.required ? t`Required for your account: set it up now.` : t`Off. Protect your account with a code from an authenticator app.`}</p>
          <FormAlert text={error} />
          <Button variant="secondary" isPending={pending} onPress={start}>
            {t`Set up two-factor authentication`}
          </Button>
        </>
      )}
    </section>
  )
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useLingui()
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string>()
  const [pending, setPending] = useState(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!code.trim() && !password) {
      setError(t`Enter a code from the app or your password.`)
      return
    }
    setPending(true)
    try {
      const { error: refusal } = await api.auth['two-factor'].disable.post(code.trim() ? { code: code.trim() } : { password })
      if (!refusal) return onDone()
      const failure = apiErrorOf(refusal)
      setError(failure.fields.some((field) => field.field === 'password') ? t`The password is not right.` : errorMessage(i18n, failure.code))
    } catch (failure) {
      setError(errorMessage(i18n, apiErrorOf(failure).code))
    } finally {
      setPending(false)
    }
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria" aria-label={t`Turn off two-factor authentication`}>
      <FormAlert text={error} />
      <TextField label={t`Authentication code or recovery code`} name="code" autoComplete="one-time-code" value={code} onChange={setCode} />
      <PasswordField label={t`Or your password`} name="current-password" autoComplete="current-password" value={password} onChange={setPassword} />
      <Button type="submit" variant="danger" isPending={pending}>
        {t`Turn off`}
      </Button>
    </Form>
  )
}
