// The company form of the super users (§3 Company): name, e-mail, phone (mask (99) 99999-9999), plan,
// status, due date, recurrence and campaigns; when creating, an optional password creates the
// company's first admin, who signs in with the company e-mail. Checked per §5 before sending.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import type { Company } from '../../../src/modules/companies/model.ts'
import type { Plan } from '../../../src/modules/plans/model.ts'
import { api } from '../../api/client.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { PasswordField } from '../../components/password-field.tsx'
import { Select } from '../../components/select.tsx'
import { SwitchField } from '../../components/switch-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { maskPhone } from '../../forms/validation.ts'
import { companyBody, companyProblems, emptyCompanyForm, recurrences, type CompanyField, type CompanyFormValues, type Recurrence } from './company-rules.ts'
import { recurrenceLabels } from './recurrence.ts'
import { saveDialog } from './requests.ts'

export type CompanyRow = Omit<Company, 'createdAt' | 'updatedAt'> & { createdAt: string | Date; updatedAt: string | Date }
export type PlanRow = Omit<Plan, 'createdAt' | 'updatedAt'> & { createdAt: string | Date; updatedAt: string | Date }

type Errors = Partial<Record<CompanyField | 'form', string>>

function formOf(company: CompanyRow | null, plans: readonly PlanRow[]): CompanyFormValues {
  if (!company) return emptyCompanyForm(plans[0]?.id ?? null)
  return {
    name: company.name,
    email: company.email,
    phone: maskPhone(company.phone),
    planId: company.planId,
    status: company.status,
    dueDate: company.dueDate ?? '',
    recurrence: company.recurrence,
    campaignsEnabled: company.campaignsEnabled,
    password: '',
  }
}

type CompanyFormProps = { company: CompanyRow | null; plans: readonly PlanRow[]; onSaved: (company: CompanyRow) => void; onDone: () => void }

function CompanyForm({ company, plans, onSaved, onDone }: CompanyFormProps) {
  const { t, i18n } = useLingui()
  const creating = company === null
  const [values, setValues] = useState<CompanyFormValues>(() => formOf(company, plans))
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const messages: Record<CompanyField, string> = {
    name: t`Enter a name of 2 to 50 characters.`,
    email: t`Enter a valid e-mail address.`,
    phone: t`Enter a phone number of at most 11 digits.`,
    planId: t`Choose a plan.`,
    password: t`Use at least 8 characters, with an uppercase letter, a lowercase letter and a digit.`,
    dueDate: t`Enter a valid date.`,
    recurrence: t`Choose a recurrence.`,
  }
  const problemText = { name: messages.name, email: messages.email, emailForAdmin: t`Enter the e-mail the admin signs in with.`, phone: messages.phone, planId: messages.planId, password: messages.password }

  const set = <Key extends keyof CompanyFormValues>(key: Key, value: CompanyFormValues[Key]) => {
    setValues((current) => ({ ...current, [key]: value }))
    setErrors(({ [key as CompanyField]: _fixed, ...rest }) => rest)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const problems = companyProblems(values, creating)
    const found: Errors = Object.fromEntries(Object.entries(problems).map(([field, problem]) => [field, problemText[problem]]))
    setErrors(found)
    if (Object.keys(found).length > 0) return
    const body = companyBody(values, creating)
    const saved = await saveDialog({
      i18n,
      request: () => (company ? api.companies({ id: company.id }).put(body) : api.companies.post(body)),
      fieldTexts: messages,
      fieldOfCode: { ERR_COMPANY_NAME_ALREADY_EXISTS: 'name', ERR_EMAIL_ALREADY_EXISTS: 'email', ERR_NO_PLAN_FOUND: 'planId' },
      setErrors,
      setPending,
    })
    if (!saved) return
    onSaved(saved)
    showToast('success', creating ? t`Company created.` : t`Company saved.`)
    onDone()
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <div className="form-grid">
        <TextField label={t`Name`} name="name" value={values.name} onChange={(value) => set('name', value)} error={errors.name} isRequired autoFocus maxLength={50} />
        <TextField label={t`E-mail`} name="email" type="email" value={values.email} onChange={(value) => set('email', value)} error={errors.email} maxLength={254} />
        <TextField label={t`Phone`} name="phone" value={values.phone} onChange={(value) => set('phone', maskPhone(value))} error={errors.phone} placeholder="(99) 99999-9999" inputMode="tel" />
        <Select
          label={t`Plan`}
          name="planId"
          options={plans.map((plan) => ({ id: plan.id, label: plan.name }))}
          value={values.planId}
          onChange={(value) => set('planId', value === null ? null : Number(value))}
          error={errors.planId}
          isRequired
          placeholder={t`Choose a plan`}
        />
        <TextField label={t`Due date`} name="dueDate" type="date" value={values.dueDate} onChange={(value) => set('dueDate', value)} error={errors.dueDate} description={t`Empty: the company never expires.`} />
        <Select
          label={t`Recurrence`}
          name="recurrence"
          options={recurrences.map((recurrence) => ({ id: recurrence, label: i18n._(recurrenceLabels[recurrence]) }))}
          value={values.recurrence}
          onChange={(value) => value !== null && set('recurrence', value as Recurrence)}
          error={errors.recurrence}
        />
        <SwitchField isSelected={values.status} onChange={(value) => set('status', value)} description={t`An inactive company cannot sign in.`}>
          {t`Active`}
        </SwitchField>
        <SwitchField isSelected={values.campaignsEnabled} onChange={(value) => set('campaignsEnabled', value)}>
          {t`Campaigns enabled`}
        </SwitchField>
        {creating ? (
          <PasswordField
            label={t`Admin password`}
            name="password"
            className="full"
            value={values.password}
            onChange={(value) => set('password', value)}
            error={errors.password}
            autoComplete="new-password"
            description={t`Optional. With a password, the company's admin is created; he signs in with the company e-mail.`}
          />
        ) : null}
      </div>
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type CompanyDialogProps = { isOpen: boolean; company: CompanyRow | null; plans: readonly PlanRow[]; onOpenChange: (isOpen: boolean) => void; onSaved: (company: CompanyRow) => void }

export function CompanyDialog({ isOpen, company, plans, onOpenChange, onSaved }: CompanyDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={company ? t`Edit company` : t`New company`} isOpen={isOpen} onOpenChange={onOpenChange} size="large">
      <CompanyForm key={company?.id ?? 'new'} company={company} plans={plans} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
