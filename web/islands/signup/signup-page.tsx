// /signup (§2, §5 Signup): company name, e-mail, phone with mask, password, plan from the public list.
// Checked before sending; the server's field errors land on their fields; success -> toast and /login.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type FormEvent } from 'react'
import { Form, type Key } from 'react-aria-components'
import { apiErrorOf, type ApiError } from '../../api/errors.ts'
import { publicApi } from '../../api/public-client.ts'
import { AuthLayout } from '../../components/auth-layout.tsx'
import { Button } from '../../components/button.tsx'
import { withCompanyId } from '../../components/company-link.ts'
import { PasswordField } from '../../components/password-field.tsx'
import { usePageTitle } from '../../components/providers.tsx'
import { LazySelect } from '../../components/lazy-select.tsx'
import type { SelectOption } from '../../components/select.tsx'
import { TextField } from '../../components/text-field.tsx'
import { flashToast } from '../../components/toasts.tsx'
import { isEmail, isStrongPassword, lengthBetween, maskPhone } from '../../forms/validation.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { formatMoney } from '../../i18n/format.ts'
import { languageTags, isLanguage } from '../../i18n/languages.ts'
import { toastFailure } from '../../components/failure-toast.ts'

type Field = 'name' | 'email' | 'phone' | 'password' | 'planId'
type Errors = Partial<Record<Field | 'form', string>>
type PublicPlan = { id: number; name: string; users: number; connections: number; queues: number; value: number }

export function SignupPage() {
  const { t, i18n } = useLingui()
  usePageTitle(t`Sign up`)
  const [plans, setPlans] = useState<PublicPlan[]>([])
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState('')
  const [password, setPassword] = useState('')
  const [planId, setPlanId] = useState<Key | null>(null)
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  useEffect(() => {
    publicApi.plans.list
      .get()
      .then(({ data, error }) => {
        if (error || !data) toastFailure(i18n, error)
        else setPlans(data.map((plan) => ({ ...plan, value: Number(plan.value) })))
      })
      .catch((failure: unknown) => toastFailure(i18n, failure))
    // Loaded once (i18n is one object for the page's life); the labels follow the language on their own.
  }, [i18n])

  const ruleMessages: Record<Field, string> = {
    name: t`Enter the company name, 2 to 50 characters.`,
    email: t`Enter a valid e-mail address.`,
    phone: t`Enter the phone as (99) 99999-9999.`,
    password: t`Use at least 8 characters, with an uppercase letter, a lowercase letter and a digit.`,
    planId: t`Choose a plan.`,
  }

  const validate = (): Errors => {
    const found: Errors = {}
    if (!lengthBetween(name, 2, 50)) found.name = ruleMessages.name
    if (!isEmail(email)) found.email = email.trim() ? ruleMessages.email : t`Enter your e-mail address.`
    const digits = phone.replace(/\D/g, '')
    if (digits && (digits.length < 10 || digits.length > 11)) found.phone = ruleMessages.phone
    if (!isStrongPassword(password) || password.length > 200) found.password = ruleMessages.password
    if (planId === null) found.planId = ruleMessages.planId
    return found
  }

  const serverErrors = (failure: ApiError): Errors => {
    const found: Errors = {}
    for (const { field } of failure.fields) {
      const key = (field === 'userName' ? 'name' : field) as Field
      if (key in ruleMessages) found[key] = ruleMessages[key]
    }
    if (failure.code === 'ERR_EMAIL_ALREADY_EXISTS') found.email = errorMessage(i18n, failure.code)
    else if (failure.code === 'ERR_COMPANY_NAME_ALREADY_EXISTS') found.name = errorMessage(i18n, failure.code)
    else if (failure.code === 'ERR_NO_PLAN_FOUND') found.planId = errorMessage(i18n, failure.code)
    else if (Object.keys(found).length === 0) found.form = errorMessage(i18n, failure.code)
    return found
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found = validate()
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    try {
      const { error } = await publicApi.companies.cadastro.post({
        name: name.trim(),
        email: email.trim(),
        password,
        planId: Number(planId),
        ...(phone ? { phone } : {}),
      })
      if (error) {
        setErrors(serverErrors(apiErrorOf(error)))
        setPending(false)
        return
      }
      flashToast('success', t`Your company was created. Sign in to start your trial.`)
      location.assign(withCompanyId('/login'))
    } catch (failure) {
      setErrors({ form: errorMessage(i18n, apiErrorOf(failure).code) })
      setPending(false)
    }
  }

  const locale = isLanguage(i18n.locale) ? languageTags[i18n.locale] : 'pt-BR'
  const planOptions: SelectOption[] = plans.map((plan) => {
    const { name: planName, users, connections, queues } = plan
    const price = formatMoney(plan.value, locale)
    return { id: plan.id, label: t`${planName}: ${users} users, ${connections} connections, ${queues} queues, ${price}/month` }
  })

  return (
    <AuthLayout title={t`Sign up`} footer={<a href={withCompanyId('/login')}>{t`Already have an account? Sign in`}</a>}>
      <p className="auth-intro">{t`Create your company and try it free for 3 days.`}</p>
      <Form className="form" onSubmit={submit} validationBehavior="aria" aria-label={t`Sign up`}>
        {errors.form ? (
          <p className="form-alert" role="alert">
            {errors.form}
          </p>
        ) : null}
        <TextField label={t`Company name`} name="name" autoComplete="organization" value={name} onChange={setName} error={errors.name} isRequired maxLength={50} autoFocus />
        <TextField label={t`E-mail`} name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={errors.email} isRequired />
        <TextField
          label={t`Phone`}
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          placeholder="(99) 99999-9999"
          value={phone}
          onChange={(value) => setPhone(maskPhone(value))}
          error={errors.phone}
        />
        <PasswordField label={t`Password`} name="password" autoComplete="new-password" value={password} onChange={setPassword} error={errors.password} isRequired />
        <LazySelect label={t`Plan`} name="planId" placeholder={t`Choose a plan`} options={planOptions} value={planId} onChange={setPlanId} error={errors.planId} isRequired />
        <Button type="submit" isPending={pending} className="form-submit">
          {pending ? t`Creating…` : t`Sign up`}
        </Button>
      </Form>
    </AuthLayout>
  )
}
