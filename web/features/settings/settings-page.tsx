// /settings (§2 Other screens "Settings"): the options tab; the company's business hours when the
// setting scheduleType is 'company'; and for super users (§6) the companies, plans and helps tabs.
// The selected tab is kept in the address (?tab=), so a reload or a shared link opens it again.
// Live: another admin's change of a setting arrives on the `settings` channel and is shown at once
// (a switch follows; the hours tab comes or goes with scheduleType); each tab listens to its own list.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useState } from 'react'
import { Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components'
import { api } from '../../api/client.ts'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { realtimeSocketAtom } from '../../state/realtime.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { failureOf } from './requests.ts'
import { settingsMapOf, type SettingsMap } from './setting-options.ts'
import { lazyPart } from '../../components/lazy-part.tsx'

// The options tab (its Selects) is shown once the settings arrived: its chunk is fetched beside that
// request (see the effect below), not before the page paints.
const loadOptionsTab = () => import('./options-tab.tsx')
const OptionsTab = lazyPart(() => loadOptionsTab().then((module) => module.OptionsTab))
// The tabs other than the options: chunks of their own, fetched when first shown (lazy-part.tsx).
const PlansTab = lazyPart(() => import('./plans-tab.tsx').then((module) => module.PlansTab))
const HelpsTab = lazyPart(() => import('./helps-tab.tsx').then((module) => module.HelpsTab))
const CompanyHoursTab = lazyPart(() => import('./company-hours-tab.tsx').then((module) => module.CompanyHoursTab))
const CompaniesTab = lazyPart(() => import('./companies-tab.tsx').then((module) => module.CompaniesTab))

const tabs = ['options', 'schedules', 'companies', 'plans', 'helps'] as const
export type SettingsTab = (typeof tabs)[number]

function tabInAddress(): SettingsTab {
  const asked = new URLSearchParams(location.search).get('tab')
  return tabs.find((tab) => tab === asked) ?? 'options'
}

export function SettingsPage() {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const isSuper = user?.super === true
  const [settings, setSettings] = useState<SettingsMap | null>(null)
  const [asked, setAsked] = useState<SettingsTab>(tabInAddress)
  const socket = useAtomValue(realtimeSocketAtom)

  const load = useCallback(
    (isCurrent: () => boolean = () => true) =>
      api.settings
        .get()
        .then(({ data, error }) => {
          if (!isCurrent()) return
          if (error || !data) showToast('error', failureOf(i18n, error).text)
          else setSettings(settingsMapOf(data))
        })
        .catch((failure: unknown) => isCurrent() && showToast('error', failureOf(i18n, failure).text)),
    [i18n],
  )
  useEffect(() => {
    let current = true
    void loadOptionsTab()
    void load(() => current)
    return () => {
      current = false
    }
  }, [load])
  // Frames sent while the socket was down are lost: read again after a reconnect.
  useEffect(() => socket?.onReconnect(() => void load()), [socket, load])

  useChannel('settings', (event) => {
    if (event.action !== 'update') return
    const { key, value } = event.setting
    setSettings((current) => current && { ...current, [key]: value })
  })

  const byCompany = settings?.scheduleType === 'company'
  const available: SettingsTab[] = ['options', ...(byCompany ? (['schedules'] as const) : []), ...(isSuper ? (['companies', 'plans', 'helps'] as const) : [])]
  // A tab that is not offered (hours kept per queue, not a super user) falls back to the options.
  const selected = available.includes(asked) ? asked : 'options'

  const select = (key: Key) => {
    const tab = key as SettingsTab
    setAsked(tab)
    const address = new URL(location.href)
    if (tab === 'options') address.searchParams.delete('tab')
    else address.searchParams.set('tab', tab)
    history.replaceState(history.state, '', address)
  }

  return (
    <div className="admin-page settings-page">
      <PageHeader title={t`Settings`} />
      <Tabs selectedKey={selected} onSelectionChange={select} className="settings-tabs">
        <TabList aria-label={t`Settings sections`} className="tab-list">
          <Tab id="options" className="tab">
            {t`Options`}
          </Tab>
          {byCompany ? (
            <Tab id="schedules" className="tab">
              {t`Hours`}
            </Tab>
          ) : null}
          {isSuper ? (
            <>
              <Tab id="companies" className="tab">
                {t`Companies`}
              </Tab>
              <Tab id="plans" className="tab">
                {t`Plans`}
              </Tab>
              <Tab id="helps" className="tab">
                {t`Helps`}
              </Tab>
            </>
          ) : null}
        </TabList>
        <TabPanel id="options" className="tab-panel">
          {settings ? (
            <OptionsTab settings={settings} onSaved={(key, value) => setSettings((current) => ({ ...current, [key]: value }))} />
          ) : (
            <p className="muted-note" role="status">
              {t`Loading…`}
            </p>
          )}
        </TabPanel>
        {byCompany && user ? (
          <TabPanel id="schedules" className="tab-panel">
            <CompanyHoursTab companyId={user.companyId} />
          </TabPanel>
        ) : null}
        {isSuper && user ? (
          <>
            <TabPanel id="companies" className="tab-panel">
              <CompaniesTab ownCompanyId={user.companyId} />
            </TabPanel>
            <TabPanel id="plans" className="tab-panel">
              <PlansTab />
            </TabPanel>
            <TabPanel id="helps" className="tab-panel">
              <HelpsTab />
            </TabPanel>
          </>
        ) : null}
      </Tabs>
    </div>
  )
}
