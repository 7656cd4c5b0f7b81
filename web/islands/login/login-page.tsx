// /login (§2, §4 Login, §8): e-mail and password; translated errors, the expired-subscription
// message with its date, a warning toast when under 5 days remain; then /tickets.
import { plural } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { apiErrorOf } from '../../api/errors.ts'
import { publicApi } from '../../api/public-client.ts'
import { setSession } from '../../api/session.ts'
import { AuthLayout } from '../../components/auth-layout.tsx'
import { Button } from '../../components/button.tsx'
import { PasswordField } from '../../components/password-field.tsx'
import { usePageTitle } from '../../components/providers.tsx'
import { TextField } from '../../components/text-field.tsx'
import { flashToast } from '../../components/toasts.tsx'
import { isEmail } from '../../forms/validation.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { daysUntil, formatCalendarDate } from '../../i18n/format.ts'
import { HOME_PATH, PAY_PATH } from '../../routes.ts'
import { isAdmin } from '../../../src/contracts/roles.ts'
import { challengeOf, TwoFactorStep, type Challenge } from './two-factor-step.tsx'

/** §4: "Under 5 days remaining shows a warning about days left." */
const WARNING_DAYS = 5

type Errors = { email?: string; password?: string; form?: string }

export function LoginPage() {
  const { t, i18n } = useLingui()
  usePageTitle(t`Sign in`)
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)
  const [challenge, setChallenge] = useState<Challenge>()

  const validate = (): Errors => {
    const found: Errors = {}
    if (!email.trim()) found.email = t`Enter your e-mail address.`
    else if (!isEmail(email)) found.email = t`Enter a valid e-mail address.`
    if (!password) found.password = t`Enter your password.`
    return found
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found = validate()
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const { data, error } = await publicApi.auth.login.post({ email: email.trim(), password })
      const secondStep = challengeOf(error)
      if (secondStep) {
        setChallenge(secondStep)
        setPending(false)
        return
      }
      if (error || !data) {
        const failure = apiErrorOf(error)
        const expiredOn = failure.dueDate ? formatCalendarDate(failure.dueDate) : ''
        const message =
          failure.code === 'ERR_SUBSCRIPTION_EXPIRED' && expiredOn
            ? t`Your subscription expired on ${expiredOn}. Please contact support for more information.`
            : errorMessage(i18n, failure.code)
        setErrors({ form: message })
        setPending(false)
        return
      }
      finishSignIn(data)
    } catch (failure) {
      setErrors({ form: errorMessage(i18n, apiErrorOf(failure).code) })
      setPending(false)
    }
  }

  const finishSignIn = (data: Parameters<typeof setSession>[0] & { user: { company: { dueDate: string | null } } }) => {
    setSession(data)
    const dueDate = data.user.company.dueDate
    if (data.payOnly) {
      // The due date passed: this admin may only pay, on the invoices page, until it is renewed.
      const expiredOn = dueDate ? formatCalendarDate(dueDate) : ''
      flashToast('warning', t`Your subscription expired on ${expiredOn}. Pay an invoice to use the system again.`)
      location.assign(PAY_PATH)
      return
    }
    const days = dueDate ? daysUntil(dueDate) : undefined
    if (days !== undefined && days >= 0 && days < WARNING_DAYS) {
      flashToast(
        'warning',
        plural(days, {
          0: 'Your subscription expires today. Renew it to keep using the system.',
          one: 'Your subscription expires in # day. Renew it to keep using the system.',
          other: 'Your subscription expires in # days. Renew it to keep using the system.',
        }),
        // Admins can renew it themselves on /subscription.
        isAdmin(data.user) ? { href: '/subscription', label: t`Renew now` } : undefined,
      )
    }
    location.assign(HOME_PATH)
  }

  return (
    <AuthLayout
      title={t`Sign in`}
      footer={
        <>
          <a href="/forgetpsw">{t`Forgot your password?`}</a>
          <a href="/signup">{t`Don't have an account? Sign up`}</a>
        </>
      }
    >
      {challenge ? (
        <TwoFactorStep challenge={challenge} onSignedIn={finishSignIn} onRestart={() => setChallenge(undefined)} />
      ) : (
        <Form className="form" onSubmit={submit} validationBehavior="aria" aria-label={t`Sign in`}>
          {errors.form ? (
            <p className="form-alert" role="alert">
              {errors.form}
            </p>
          ) : null}
          <TextField
            label={t`E-mail`}
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={setEmail}
            error={errors.email}
            isRequired
            autoFocus
          />
          <PasswordField
            label={t`Password`}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={errors.password}
            isRequired
          />
          <Button type="submit" isPending={pending} className="form-submit">
            {pending ? t`Signing in…` : t`Sign in`}
          </Button>
        </Form>
      )}
    </AuthLayout>
  )
}
