// / (§2, admins): the counters, filters, charts and attendants table of §2/§3/§9. Every counter, bar
// and agent opens the tickets behind it; the tables export as .xlsx.
import '../../styles/dashboard.css'
import { useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useCallback, useMemo, useState } from 'react'
import { saveDownload } from '../../api/save-download.ts'
import { Button } from '../../components/button.tsx'
import { DownloadIcon } from '../../components/icons.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { LazySelect } from '../../components/lazy-select.tsx'
import { TextField } from '../../components/text-field.tsx'
import { showToast } from '../../components/toasts.tsx'
import { AttendantsTable } from './attendants-table.tsx'
import type { ChartBar } from './bar-chart-card.tsx'
import { CountersRow } from './counters-row.tsx'
import type { DrillDownTarget } from './drill-down-dialog.tsx'
import { defaultFilter, PERIODS, requestOf, type DashboardFilter, type DashboardRequest } from './figures.ts'
import { SlaTable } from './sla-table.tsx'
import { useDashboard } from './use-dashboard.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const DrillDownDialog = lazyPart(() => import('./drill-down-dialog.tsx').then((module) => module.DrillDownDialog))

// The chart library (recharts and d3, ~110 KB compressed) in a chunk of its own: the counters, the
// attendants and the service levels paint without waiting for it.
const BarChartCard = lazy(() => import('./bar-chart-card.tsx').then((module) => ({ default: module.BarChartCard })))

export function DashboardPage() {
  const { t, i18n } = useLingui()
  const [filter, setFilter] = useState<DashboardFilter>(() => defaultFilter())
  const [applied, setApplied] = useState<DashboardRequest>(() => requestOf(defaultFilter())!)
  const [target, setTarget] = useState<DrillDownTarget | null>(null)
  const { dashboard, perUser, perDay, sla, loading } = useDashboard(applied)
  const range = dashboard?.range ?? { from: '', to: '' }
  const closeDrillDown = useCallback(() => setTarget(null), [])

  const apply = () => {
    const request = requestOf(filter)
    // §5: at least one of period, start or end date.
    if (!request) showToast('error', t`Choose a period or a date to filter.`)
    else setApplied(request)
  }

  const exportTables = async () => {
    const query = new URLSearchParams(Object.entries(applied).map(([key, value]) => [key, String(value)]))
    const code = await saveDownload(`/api/dashboard/export?${query}`, (disposition) => /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? 'dashboard.xlsx')
    if (code) toastFailure(i18n, { status: 0, value: { error: code } })
  }

  const dayBars = useMemo<ChartBar[]>(
    () =>
      (perDay?.data ?? []).map((row) =>
        row.horario !== undefined
          ? { key: row.horario, label: `${row.horario}h`, total: row.total, tooltip: t`from ${row.horario}:00 to ${row.horario}:59` }
          : { key: row.data ?? '', label: (row.data ?? '').slice(5).split('-').reverse().join('/'), total: row.total },
      ),
    [perDay, t],
  )
  const userBars = useMemo<ChartBar[]>(() => (perUser?.data ?? []).map((row) => ({ key: String(row.userId), label: row.nome, total: row.quantidade })), [perUser])
  const csatBars = useMemo<ChartBar[]>(
    () => (dashboard?.csat ?? []).map((row) => ({ key: String(row.rate), label: '★'.repeat(row.rate), total: row.total })),
    [dashboard],
  )
  const hourly = perDay?.data[0]?.horario !== undefined

  return (
    <div className="admin-page dashboard-page" aria-busy={loading || undefined}>
      <PageHeader title={t`Dashboard`}>
        <Button variant="secondary" onPress={() => void exportTables()} isDisabled={!dashboard}>
          <DownloadIcon /> {t`Export .xlsx`}
        </Button>
      </PageHeader>
      <form
        className="dashboard-filters"
        aria-label={t`Filters`}
        onSubmit={(event) => {
          event.preventDefault()
          apply()
        }}
      >
        <LazySelect
          label={t`Period`}
          name="period"
          options={PERIODS.map((days) => ({ id: String(days), label: days === 0 ? t`None (by dates)` : t`Last ${days} days` }))}
          value={String(filter.period)}
          onChange={(value) => setFilter((current) => ({ ...current, period: Number(value ?? 0) }))}
        />
        <TextField label={t`Start date`} type="date" name="date_from" value={filter.dateFrom} isDisabled={filter.period > 0} onChange={(value) => setFilter((current) => ({ ...current, dateFrom: value }))} />
        <TextField label={t`End date`} type="date" name="date_to" value={filter.dateTo} isDisabled={filter.period > 0} onChange={(value) => setFilter((current) => ({ ...current, dateTo: value }))} />
        <Button type="submit">{t`Filter`}</Button>
      </form>
      {dashboard ? (
        <>
          <CountersRow counters={dashboard.counters} onOpen={setTarget} />
          <Suspense fallback={<div className="dashboard-charts" aria-busy="true" />}>
            <div className="dashboard-charts">
              <BarChartCard
                name="dashboard-chart-day"
                title={hourly ? t`Attendances per hour` : t`Attendances per day`}
                totalLabel={t`Attendances`}
                bars={dayBars}
                onOpen={(bar) =>
                  setTarget(
                    hourly
                      ? { title: t`Attendances from ${bar.key}:00 to ${bar.key}:59`, filter: { day: range.from, hour: Number(bar.key) } }
                      : { title: t`Attendances of ${bar.label}`, filter: { day: bar.key } },
                  )
                }
              />
              <BarChartCard
                name="dashboard-chart-user"
                title={t`Attendances per user`}
                totalLabel={t`Attendances`}
                bars={userBars}
                onOpen={(bar) => setTarget({ title: t`Attendances of ${bar.label}`, filter: { userId: Number(bar.key) } })}
              />
              <BarChartCard
                name="dashboard-chart-csat"
                title={t`Customer satisfaction`}
                totalLabel={t`Ratings`}
                bars={csatBars}
                onOpen={(bar) => setTarget({ title: t`Tickets rated ${bar.key} of 3`, filter: { rate: Number(bar.key) } })}
              />
            </div>
          </Suspense>
          <AttendantsTable attendants={dashboard.attendants} onOpen={(attendant) => setTarget({ title: t`Attendances of ${attendant.name}`, filter: { userId: attendant.id } })} />
          {sla ? <SlaTable sla={sla} onOpen={setTarget} /> : null}
        </>
      ) : null}
      <DrillDownDialog target={target} range={range} onClose={closeDrillDown} />
    </div>
  )
}
