// The plan form of the super users (§3 Plan): name, limits of users, connections and queues, monthly
// price, each feature flag (all enabled for a new plan, §9) and whether the signup page offers it.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { DialogFooter, FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { SwitchField } from '../../components/switch-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import type { PlanRow } from './company-dialog.tsx'
import { planFeatureLabels } from './plan-features.ts'
import { planBody, planFeatures, planFormOf, planProblems, type PlanField, type PlanFormValues } from './plan-rules.ts'
import { saveDialog } from './requests.ts'

type Errors = Partial<Record<PlanField | 'form', string>>
type PlanFormProps = { plan: PlanRow | null; onSaved: (plan: PlanRow) => void; onDone: () => void }

function PlanForm({ plan, onSaved, onDone }: PlanFormProps) {
  const { t, i18n } = useLingui()
  const [values, setValues] = useState<PlanFormValues>(() => planFormOf(plan))
  const [errors, setErrors] = useState<Errors>({})
  const [pending, setPending] = useState(false)

  const messages: Record<PlanField, string> = {
    name: t`Enter a name (at most 100 characters).`,
    users: t`Enter a whole number of at least 1.`,
    connections: t`Enter a whole number of at least 1.`,
    queues: t`Enter a whole number of at least 1.`,
    value: t`Enter a price of at least 0, with up to 2 decimals.`,
  }

  const set = <Key extends keyof PlanFormValues>(key: Key, value: PlanFormValues[Key]) => {
    setValues((current) => ({ ...current, [key]: value }))
    setErrors(({ [key as PlanField]: _fixed, ...rest }) => rest)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found: Errors = Object.fromEntries(planProblems(values).map((field) => [field, messages[field]]))
    setErrors(found)
    if (Object.keys(found).length > 0) return
    const body = planBody(values)
    const saved = await saveDialog({
      i18n,
      request: () => (plan ? api.plans({ id: plan.id }).put(body) : api.plans.post(body)),
      fieldTexts: messages,
      fieldOfCode: { ERR_PLAN_NAME_ALREADY_EXISTS: 'name' },
      setErrors,
      setPending,
    })
    if (!saved) return
    onSaved(saved)
    showToast('success', plan ? t`Plan saved.` : t`Plan created.`)
    onDone()
  }

  return (
    <Form className="form" onSubmit={submit} validationBehavior="aria">
      <FormAlert text={errors.form} />
      <div className="form-grid">
        <TextField label={t`Name`} name="name" className="full" value={values.name} onChange={(value) => set('name', value)} error={errors.name} isRequired autoFocus maxLength={100} />
        <TextField label={t`Users`} name="users" value={values.users} onChange={(value) => set('users', value)} error={errors.users} isRequired inputMode="numeric" />
        <TextField label={t`Connections`} name="connections" value={values.connections} onChange={(value) => set('connections', value)} error={errors.connections} isRequired inputMode="numeric" />
        <TextField label={t`Queues`} name="queues" value={values.queues} onChange={(value) => set('queues', value)} error={errors.queues} isRequired inputMode="numeric" />
        <TextField label={t`Price`} name="value" value={values.value} onChange={(value) => set('value', value)} error={errors.value} isRequired inputMode="decimal" placeholder="49.90" description={t`Per month, in BRL.`} />
      </div>
      <fieldset className="settings-flags">
        <legend className="field-label">{t`Features`}</legend>
        {planFeatures.map((feature) => (
          <SwitchField key={feature} isSelected={values[feature]} onChange={(value) => set(feature, value)}>
            {i18n._(planFeatureLabels[feature])}
          </SwitchField>
        ))}
      </fieldset>
      <SwitchField isSelected={values.isPublic} onChange={(value) => set('isPublic', value)} description={t`A public plan is offered on the signup page; a private one only by a super user.`}>
        {t`Public`}
      </SwitchField>
      <DialogFooter onCancel={onDone} pending={pending} />
    </Form>
  )
}

export type PlanDialogProps = { isOpen: boolean; plan: PlanRow | null; onOpenChange: (isOpen: boolean) => void; onSaved: (plan: PlanRow) => void }

export function PlanDialog({ isOpen, plan, onOpenChange, onSaved }: PlanDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={plan ? t`Edit plan` : t`New plan`} isOpen={isOpen} onOpenChange={onOpenChange} size="large">
      <PlanForm key={plan?.id ?? 'new'} plan={plan} onSaved={onSaved} onDone={() => onOpenChange(false)} />
    </Dialog>
  )
}
