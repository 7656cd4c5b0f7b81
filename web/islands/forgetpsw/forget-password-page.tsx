// /forgetpsw (§2, §5 Password reset, §8): step 1 mails a code to the e-mail; step 2 takes the code,
// the new password (8+ characters with upper, lower and digit) and its confirmation; success -> /login.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { apiErrorOf } from '../../api/errors.ts'
import { publicApi } from '../../api/public-client.ts'
import { AuthLayout } from '../../components/auth-layout.tsx'
import { Button } from '../../components/button.tsx'
import { withCompanyId } from '../../components/company-link.ts'
import { PasswordField } from '../../components/password-field.tsx'
import { usePageTitle } from '../../components/providers.tsx'
import { TextField } from '../../components/text-field.tsx'
import { flashToast, showToast } from '../../components/toasts.tsx'
import { isEmail, isStrongPassword } from '../../forms/validation.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { toastFailure } from '../../components/failure-toast.ts'

// §7: the e-mail, the code and the new password travel in the path; Eden does not encode path values.
const pathSegment = (value: string) => encodeURIComponent(value)

type Errors = { email?: string; code?: string; password?: string; confirmation?: string }

export function ForgetPasswordPage() {
  const { t, i18n } = useLingui()
  usePageTitle(t`Reset password`)
  const [step, setStep] = useState<'email' | 'code'>('email')
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const requestCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = {}
    if (!email.trim()) found.email = t`Enter your e-mail address.`
    else if (!isEmail(email)) found.email = t`Enter a valid e-mail address.`
    setErrors(found)
    if (found.email) return
    setPending(true)
    try {
      const { error } = await publicApi.forgetpassword({ email: pathSegment(email.trim()) }).post()
      if (error) {
        const failure = apiErrorOf(error)
        // §8: a 404 means the e-mail is not registered.
        showToast('error', failure.status === 404 ? t`E-mail not found.` : errorMessage(i18n, failure.code))
        return
      }
      showToast('success', t`E-mail sent. Check your inbox for the code.`)
      setStep('code')
    } catch (failure) {
      toastFailure(i18n, failure)
    } finally {
      setPending(false)
    }
  }

  const resetPassword = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = {}
    if (!code.trim()) found.code = t`Enter the code from the e-mail.`
    if (!isStrongPassword(password)) found.password = t`Use at least 8 characters, with an uppercase letter, a lowercase letter and a digit.`
    if (!confirmation) found.confirmation = t`Confirm the new password.`
    else if (confirmation !== password) found.confirmation = t`The passwords do not match.`
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const { error } = await publicApi
        .resetpasswords({ email: pathSegment(email.trim()) })({ token: pathSegment(code.trim()) })({ newPassword: pathSegment(password) })
        .post()
      if (error) {
        // The spec only logs step 2 failures; saying why helps more than a silent form.
        const failure = apiErrorOf(error)
        console.info('password reset failed', failure.code)
        showToast('error', errorMessage(i18n, failure.code))
        setPending(false)
        return
      }
      flashToast('success', t`Password updated. Sign in with the new password.`)
      location.assign(withCompanyId('/login'))
    } catch (failure) {
      toastFailure(i18n, failure)
      setPending(false)
    }
  }

  const footer = (
    <>
      <a href={withCompanyId('/login')}>{t`Back to sign in`}</a>
      <a href={withCompanyId('/signup')}>{t`Don't have an account? Sign up`}</a>
    </>
  )

  if (step === 'email') {
    return (
      <AuthLayout title={t`Reset password`} footer={footer}>
        <p className="auth-intro">{t`Enter your e-mail and we will send you a code to set a new password.`}</p>
        <Form className="form" onSubmit={requestCode} validationBehavior="aria" aria-label={t`Reset password`}>
          <TextField label={t`E-mail`} name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={errors.email} isRequired autoFocus />
          <Button type="submit" isPending={pending} className="form-submit">
            {t`Send code`}
          </Button>
        </Form>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout title={t`Reset password`} footer={footer}>
      <p className="auth-intro">{t`We sent a code to ${email}. Enter it with your new password.`}</p>
      <Form className="form" onSubmit={resetPassword} validationBehavior="aria" aria-label={t`Set a new password`}>
        <TextField
          label={t`Verification code`}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={setCode}
          error={errors.code}
          isRequired
          autoFocus
        />
        <PasswordField
          label={t`New password`}
          name="newPassword"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
          description={t`At least 8 characters, with an uppercase letter, a lowercase letter and a digit.`}
          isRequired
        />
        <PasswordField
          label={t`Confirm the new password`}
          name="confirmation"
          autoComplete="new-password"
          value={confirmation}
          onChange={setConfirmation}
          error={errors.confirmation}
          isRequired
        />
        <Button type="submit" isPending={pending} className="form-submit">
          {t`Change password`}
        </Button>
        <Button variant="ghost" onPress={() => setStep('email')}>
          {t`Send a new code`}
        </Button>
      </Form>
    </AuthLayout>
  )
}
