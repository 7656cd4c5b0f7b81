// The options tab: every §9 settings key, each saved the moment it changes (PUT /settings/{key}) with
// the §8 success toast. A switch shows its new position while saving and goes back if the save fails.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { PasswordField } from '../../components/password-field.tsx'
import { Select } from '../../components/select.tsx'
import { SwitchField } from '../../components/switch-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { DataRetentionSection, RETENTION_KEY } from './data-retention-section.tsx'
import { failureOf } from './requests.ts'
import { PlatformTwoFactorSwitch } from './platform-two-factor.tsx'
import { DISABLED, ENABLED, PAYMENT_TOKEN_KEY, settingOptions, type SettingsMap } from './setting-options.ts'

export type OptionsTabProps = { settings: SettingsMap; onSaved: (key: string, value: string) => void }

export function OptionsTab({ settings, onSaved }: OptionsTabProps) {
  const { t, i18n } = useLingui()
  // The values being saved: shown at once, dropped when the answer arrives.
  const [drafts, setDrafts] = useState<Record<string, string>>({})

  const save = async (key: string, value: string): Promise<boolean> => {
    setDrafts((current) => ({ ...current, [key]: value }))
    try {
      const { data, error } = await api.settings({ key }).put({ value })
      if (error || !data) {
        showToast('error', failureOf(i18n, error).text)
        return false
      }
      onSaved(data.key, data.value)
      showToast('success', t`Operation updated successfully.`)
      return true
    } catch (failure) {
      showToast('error', failureOf(i18n, failure).text)
      return false
    } finally {
      setDrafts((current) => {
        const { [key]: _saved, ...rest } = current
        return rest
      })
    }
  }

  const valueOf = (key: string) => drafts[key] ?? settings[key] ?? ''

  return (
    <div className="settings-options">
      {settingOptions.map((option) =>
        option.kind === 'switch' ? (
          <div className="settings-option" key={option.key}>
            <SwitchField
              isSelected={valueOf(option.key) === ENABLED}
              onChange={(on) => void save(option.key, on ? ENABLED : DISABLED)}
              description={i18n._(option.description)}
              isDisabled={option.key in drafts}
            >
              {i18n._(option.label)}
            </SwitchField>
          </div>
        ) : (
          <div className="settings-option" key={option.key}>
            <Select
              label={i18n._(option.label)}
              options={option.choices.map((choice) => ({ id: choice.value, label: i18n._(choice.label) }))}
              value={valueOf(option.key) || null}
              onChange={(value) => value !== null && value !== valueOf(option.key) && void save(option.key, String(value))}
              isDisabled={option.key in drafts}
            />
            <p className="field-description">{i18n._(option.description)}</p>
          </div>
        ),
      )}
      <PlatformTwoFactorSwitch />
      <PaymentTokenForm stored={settings[PAYMENT_TOKEN_KEY] ?? ''} onSave={(value) => save(PAYMENT_TOKEN_KEY, value)} />
      <DataRetentionSection stored={settings[RETENTION_KEY] ?? '0'} onSave={save} />
    </div>
  )
}

/** The Asaas token: typed, then saved with its button (a half-typed token is not worth a request). */
function PaymentTokenForm({ stored, onSave }: { stored: string; onSave: (value: string) => Promise<boolean> }) {
  const { t } = useLingui()
  const [value, setValue] = useState(stored)
  const [error, setError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)
  // Saved: the field holds the token's masked form, as the server returns it (never the token).
  useEffect(() => setValue(stored), [stored])

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const token = value.trim()
    if (token.length > 2000) {
      setError(t`The token has at most 2000 characters.`)
      return
    }
    setError(undefined)
    setPending(true)
    try {
      await onSave(token)
    } finally {
      setPending(false)
    }
  }

  return (
    <Form className="settings-option settings-token" onSubmit={submit} validationBehavior="aria">
      <PasswordField
        label={t`Asaas token`}
        name="asaas"
        value={value}
        onChange={setValue}
        error={error}
        autoComplete="off"
        description={t`The payment provider's access token the platform charges every company's invoices with. Only the token of the super users' company is used.`}
      />
      <Button type="submit" variant="secondary" isPending={pending} isDisabled={value.trim() === stored}>
        {t`Save token`}
      </Button>
    </Form>
  )
}
