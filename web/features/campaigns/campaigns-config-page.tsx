// /campaigns-config (§2, §7, §9): the intervals in SECONDS from §9's option lists, the campaign
// variables (a key already present is not added again, §5), and what protects the number: the
// sending window, the daily cap with its warm-up ramp, the jitter, and the opt-out stop words.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState, type FormEvent } from 'react'
import { Form } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { FormAlert } from '../../components/dialog-footer.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { LazySelect } from '../../components/lazy-select.tsx'
import { SwitchField } from '../../components/switch-field.tsx'
import { TextAreaField } from '../../components/text-area-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { TrashIcon } from '../../components/icons.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import { DEFAULT_CAMPAIGN_SETTINGS, LONGER_INTERVAL_OPTIONS, MESSAGE_INTERVAL_OPTIONS, type CampaignSettingsShape as CampaignSettings } from '../../../src/contracts/campaigns.ts'

const weekdayNames = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

export function CampaignsConfigPage() {
  const { t, i18n } = useLingui()
  const [settings, setSettings] = useState<CampaignSettings>(DEFAULT_CAMPAIGN_SETTINGS)
  const [loaded, setLoaded] = useState(false)
  const [newKey, setNewKey] = useState('')
  const [newValue, setNewValue] = useState('')
  const [formError, setFormError] = useState<string>()
  const [pending, setPending] = useState(false)

  useEffect(() => {
    void api['campaign-settings'].get().then(({ data }) => {
      if (data) setSettings({ ...DEFAULT_CAMPAIGN_SETTINGS, ...Object.fromEntries(data.map((row) => [row.key, JSON.parse(row.value) as unknown])) })
      setLoaded(true)
    })
  }, [])

  const set = <Key extends keyof CampaignSettings>(key: Key, value: CampaignSettings[Key]) => setSettings((current) => ({ ...current, [key]: value }))
  const seconds = (options: readonly number[]) => options.map((value) => ({ id: value, label: t`${value} seconds` }))
  const weekdayLabel = (day: number) => new Intl.DateTimeFormat(i18n.locale, { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 10, 22 + day)))

  const addVariable = () => {
    const key = newKey.trim()
    if (!/^[A-Za-z_][\w-]*$/.test(key)) {
      setFormError(t`A variable key is letters, digits, _ or -, starting with a letter.`)
      return
    }
    // §5: a key that already exists is not added again.
    if (!settings.variables.some((variable) => variable.key === key)) set('variables', [...settings.variables, { key, value: newValue }])
    setNewKey('')
    setNewValue('')
    setFormError(undefined)
  }

  const words = (language: 'pt' | 'en' | 'es') => settings.stopWords[language].join(', ')
  const setWords = (language: 'pt' | 'en' | 'es', text: string) =>
    set('stopWords', { ...settings.stopWords, [language]: text.split(',').map((word) => word.trim()).filter(Boolean) })
  const integer = (text: string) => Math.max(0, Math.floor(Number(text) || 0))

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setPending(true)
    try {
      const { error } = await api['campaign-settings'].post({ settings })
      if (error) {
        const failure = apiErrorOf(error)
        const text = failure.fields.length > 0 ? failure.fields.map((field) => `${field.field}: ${field.message}`).join('; ') : errorMessage(i18n, failure.code)
        setFormError(text)
        showToast('error', text)
        return
      }
      setFormError(undefined)
      showToast('success', t`Settings saved.`)
    } finally {
      setPending(false)
    }
  }

  return (
    <div className="admin-page campaigns-config">
      <PageHeader title={t`Campaign settings`}>
        <a className="button button-secondary" href="/campaigns">
          {t`Back to campaigns`}
        </a>
      </PageHeader>
      <Form className="form campaigns-config-form" onSubmit={submit} validationBehavior="aria" aria-busy={!loaded}>
        <FormAlert text={formError} />
        <fieldset className="config-group">
          <legend>{t`Intervals`}</legend>
          <div className="form-row">
            <LazySelect label={t`Interval between messages`} options={seconds(MESSAGE_INTERVAL_OPTIONS)} value={settings.messageInterval} onChange={(value) => set('messageInterval', Number(value))} />
            <LazySelect label={t`Longer interval after (messages)`} options={LONGER_INTERVAL_OPTIONS.map((value) => ({ id: value, label: String(value) }))} value={settings.longerIntervalAfter} onChange={(value) => set('longerIntervalAfter', Number(value))} />
            <LazySelect label={t`Longer interval`} options={seconds(LONGER_INTERVAL_OPTIONS)} value={settings.greaterInterval} onChange={(value) => set('greaterInterval', Number(value))} />
          </div>
          <TextField label={t`Random jitter (± %)`} value={String(settings.jitterPercent)} onChange={(text) => set('jitterPercent', Math.min(100, integer(text)))} inputMode="numeric" />
        </fieldset>

        <fieldset className="config-group">
          <legend>{t`Sending window`}</legend>
          <SwitchField isSelected={settings.sendWindow.enabled} onChange={(enabled) => set('sendWindow', { ...settings.sendWindow, enabled })} description={t`In the company's time zone.`}>
            {t`Send only inside the window`}
          </SwitchField>
          <div className="form-row">
            <TextField label={t`From (HH:MM)`} value={settings.sendWindow.start} onChange={(start) => set('sendWindow', { ...settings.sendWindow, start })} maxLength={5} />
            <TextField label={t`To (HH:MM)`} value={settings.sendWindow.end} onChange={(end) => set('sendWindow', { ...settings.sendWindow, end })} maxLength={5} />
          </div>
          <div className="weekday-choices" role="group" aria-label={t`Weekdays`}>
            {weekdayNames.map((name, day) => (
              <label key={name} className="weekday-choice">
                <input
                  type="checkbox"
                  checked={settings.sendWindow.weekdays.includes(day)}
                  onChange={(event) => {
                    const selected = event.target.checked
                    set('sendWindow', { ...settings.sendWindow, weekdays: selected ? [...settings.sendWindow.weekdays, day].sort() : settings.sendWindow.weekdays.filter((other) => other !== day) })
                  }}
                />{' '}
                {weekdayLabel(day)}
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className="config-group">
          <legend>{t`Daily cap per connection`}</legend>
          <div className="form-row">
            <TextField label={t`Messages per day (0: no cap)`} value={String(settings.dailyCap)} onChange={(text) => set('dailyCap', integer(text))} inputMode="numeric" />
            <TextField label={t`First day of a new number`} value={String(settings.warmupStart)} onChange={(text) => set('warmupStart', integer(text))} inputMode="numeric" description={t`0: no warm-up.`} />
            <TextField label={t`More each day`} value={String(settings.warmupIncrease)} onChange={(text) => set('warmupIncrease', integer(text))} inputMode="numeric" />
          </div>
        </fieldset>

        <fieldset className="config-group">
          <legend>{t`Opt-out words`}</legend>
          <p className="muted-note">{t`A contact who replies one of these is excluded from every later campaign.`}</p>
          <TextAreaField label={t`Portuguese`} value={words('pt')} onChange={(text) => setWords('pt', text)} rows={2} />
          <TextAreaField label={t`English`} value={words('en')} onChange={(text) => setWords('en', text)} rows={2} />
          <TextAreaField label={t`Spanish`} value={words('es')} onChange={(text) => setWords('es', text)} rows={2} />
        </fieldset>

        <fieldset className="config-group">
          <legend>{t`Variables`}</legend>
          <ul className="campaign-variables">
            {settings.variables.map((variable) => (
              <li key={variable.key}>
                <code>{`{{${variable.key}}}`}</code> {variable.value}
                <Button variant="ghost" icon aria-label={t`Remove variable ${variable.key}`} onPress={() => set('variables', settings.variables.filter((other) => other.key !== variable.key))}>
                  <TrashIcon />
                </Button>
              </li>
            ))}
          </ul>
          <div className="form-row">
            <TextField label={t`Key`} value={newKey} onChange={setNewKey} maxLength={40} />
            <TextField label={t({ message: 'Value', context: 'campaign variable' })} value={newValue} onChange={setNewValue} maxLength={1000} />
            <Button variant="secondary" onPress={addVariable}>
              {t`Add variable`}
            </Button>
          </div>
        </fieldset>
        <div className="dialog-footer">
          <Button type="submit" isDisabled={pending || !loaded}>
            {t`Save settings`}
          </Button>
        </div>
      </Form>
    </div>
  )
}
