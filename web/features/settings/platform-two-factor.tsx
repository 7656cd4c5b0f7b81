// Super users only: the platform rule requiring two-factor authentication of every admin and super user.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { SwitchField } from '../../components/switch-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { sessionUserAtom } from '../../state/session.ts'
import { failureOf } from './requests.ts'

export function PlatformTwoFactorSwitch() {
  const user = useAtomValue(sessionUserAtom)
  return user?.super ? <PlatformSwitch /> : null
}

function PlatformSwitch() {
  const { t, i18n } = useLingui()
  const [required, setRequired] = useState<boolean | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    void api.auth['two-factor']['platform-policy'].get().then(({ data }) => data && setRequired(data.required))
  }, [])

  const save = async (next: boolean) => {
    setSaving(true)
    try {
      const { data, error } = await api.auth['two-factor']['platform-policy'].put({ required: next })
      if (error || !data) return showToast('error', failureOf(i18n, error).text)
      setRequired(data.required)
      showToast('success', t`Operation updated successfully.`)
    } finally {
      setSaving(false)
    }
  }

  if (required === null) return null
  return (
    <div className="settings-option">
      <SwitchField
        isSelected={required}
        onChange={(on) => void save(on)}
        isDisabled={saving}
        description={t`Platform-wide (super users): every company's admins and every super user must use two-factor authentication.`}
      >
        {t`Require two-factor authentication on the whole platform`}
      </SwitchField>
    </div>
  )
}
