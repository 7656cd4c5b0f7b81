// The grace period (super users, on /financeiro beside the revenue): how many days past its due date
// an unpaid company keeps working before it is blocked; the overdue reminder names the day it ends.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

const MAX_GRACE_DAYS = 365

export function GracePeriodForm() {
  const { t, i18n } = useLingui()
  const [stored, setStored] = useState<{ graceDays: number; defaultGraceDays: number } | null>(null)
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)
  useEffect(() => {
    void api.billing['grace-period'].get().then(({ data }) => {
      if (!data) return
      setStored(data)
      setValue(String(data.graceDays))
    })
  }, [])
  if (!stored) return null

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const days = value.trim()
    if (!/^\d{1,3}$/.test(days) || Number(days) > MAX_GRACE_DAYS) {
      setError(t`A whole number of days from 0 to 365.`)
      return
    }
    setError(undefined)
    setPending(true)
    try {
      const { data, error: failure } = await api.billing['grace-period'].put({ graceDays: Number(days) })
      if (failure || !data) return toastFailure(i18n, failure)
      setStored(data)
      showToast('success', t`Operation updated successfully.`)
    } finally {
      setPending(false)
    }
  }

  const defaultDays = stored.defaultGraceDays
  return (
    <Form className="grace-period-form" onSubmit={submit} validationBehavior="aria" aria-label={t`Grace period`}>
      <TextField
        label={t`Grace period (days)`}
        name="graceDays"
        inputMode="numeric"
        value={value}
        onChange={setValue}
        error={error}
        description={t`Days past its due date an unpaid company keeps working before it is blocked (default ${defaultDays}).`}
      />
      <Button type="submit" variant="secondary" isPending={pending} isDisabled={value.trim() === String(stored.graceDays)}>
        {t`Save grace period`}
      </Button>
    </Form>
  )
}
