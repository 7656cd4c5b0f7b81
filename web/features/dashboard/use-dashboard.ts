// Loads a period's figures: GET /dashboard first (it resolves the period to days), then the two
// charts over those days. A failing chart toasts its own message (§8) and leaves the rest shown.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { showToast } from '../../components/toasts.tsx'
import type { DashboardRequest } from './figures.ts'
import { toastFailure } from '../../components/failure-toast.ts'

export type DashboardData = NonNullable<Awaited<ReturnType<typeof api.dashboard.get>>['data']>
export type PerUser = NonNullable<Awaited<ReturnType<typeof api.dashboard.ticketsUsers.get>>['data']>
export type PerDay = NonNullable<Awaited<ReturnType<typeof api.dashboard.ticketsDay.get>>['data']>
export type ServiceLevels = NonNullable<Awaited<ReturnType<typeof api.dashboard.sla.get>>['data']>

export type DashboardState = { loading: boolean; dashboard: DashboardData | null; perUser: PerUser | null; perDay: PerDay | null; sla: ServiceLevels | null }

export function useDashboard(request: DashboardRequest): DashboardState {
  const { t, i18n } = useLingui()
  const [state, setState] = useState<DashboardState>({ loading: true, dashboard: null, perUser: null, perDay: null, sla: null })
  const key = JSON.stringify(request)

  useEffect(() => {
    let current = true
    setState((previous) => ({ ...previous, loading: true }))
    void (async () => {
      const { data, error } = await api.dashboard.get({ query: JSON.parse(key) as DashboardRequest })
      if (!current) return
      if (error || !data) {
        toastFailure(i18n, error)
        setState({ loading: false, dashboard: null, perUser: null, perDay: null, sla: null })
        return
      }
      const range = { initialDate: data.range.from, finalDate: data.range.to }
      const [users, days, sla] = await Promise.all([
        api.dashboard.ticketsUsers.get({ query: range }),
        api.dashboard.ticketsDay.get({ query: range }),
        api.dashboard.sla.get({ query: JSON.parse(key) as DashboardRequest }),
      ])
      if (!current) return
      if (users.error) showToast('error', t`Could not load the chart of attendances per user.`)
      if (days.error) showToast('error', t`Could not load the chart of attendances per date.`)
      if (sla.error) toastFailure(i18n, sla.error)
      setState({ loading: false, dashboard: data, perUser: users.data ?? null, perDay: days.data ?? null, sla: sla.data ?? null })
    })()
    return () => {
      current = false
    }
  }, [i18n, key, t])

  return state
}
