// Enrolling an authenticator app: the QR code of the otpauth:// URI, the secret as text for typing
// in, and the first code that confirms it. Used by the profile modal and by the sign-in's setup step.
import '../../styles/two-factor.css'
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { Button } from '../../components/button.tsx'
import { FormAlert } from '../../components/dialog-footer.tsx'
import { TextField } from '../../components/text-field.tsx'
import { QrCode } from '../connections/qr-code.tsx'

export type Enrolment = { secret: string; uri: string }

/** Six digits, spaces allowed (apps show "123 456"). */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ''))
}

export function EnrolmentPanel({ enrolment, onConfirm, error }: { enrolment: Enrolment; onConfirm: (code: string) => Promise<void>; error?: string }) {
  const { t } = useLingui()
  const [code, setCode] = useState('')
  const [fieldError, setFieldError] = useState<string>()
  const [pending, setPending] = useState(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!isTotpCode(code)) {
      setFieldError(t`Enter the 6-digit code shown by the app.`)
      return
    }
    setFieldError(undefined)
    setPending(true)
    try {
      await onConfirm(code.replace(/\s+/g, ''))
    } finally {
      setPending(false)
    }
  }

  return (
    <div className="two-factor-enrolment">
      <p>{t`Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…), then type the code it shows.`}</p>
      <QrCode value={enrolment.uri} label={t`QR code for the authenticator app`} loadingText={t`Loading…`} />
      <p className="two-factor-secret">
        {t`Or type this key:`} <code data-testid="two-factor-secret">{enrolment.secret}</code>
      </p>
      <Form className="form" onSubmit={submit} validationBehavior="aria" aria-label={t`Confirm two-factor authentication`}>
        <FormAlert text={error} />
        <TextField label={t`Authentication code`} name="code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={setCode} error={fieldError} isRequired autoFocus />
        <Button type="submit" isPending={pending}>
          {t`Confirm`}
        </Button>
      </Form>
    </div>
  )
}

/** The recovery codes, shown once: each signs in once when the phone is lost. */
export function RecoveryCodes({ codes, onDone, doneLabel }: { codes: string[]; onDone: () => void; doneLabel: string }) {
  const { t } = useLingui()
  return (
    <div className="two-factor-recovery">
      <p role="status">{t`Two-factor authentication is on. Keep these recovery codes somewhere safe: each one signs you in once if you lose your phone. They are shown only now.`}</p>
      <ul className="two-factor-recovery-codes" aria-label={t`Recovery codes`}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <Button onPress={onDone}>{doneLabel}</Button>
    </div>
  )
}
