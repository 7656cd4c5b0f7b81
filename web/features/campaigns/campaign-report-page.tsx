// /campaign/:campaignId/report (§2, §4): totals with progress bars, a timeline chart, the per-contact
// rows; live from the `campaign` channel (progress ticks reload the figures); reloads 5 s after it
// sees FINALIZADA (§9). Exported as .xlsx.
import { useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../../api/client.ts'
import { saveDownload } from '../../api/save-download.ts'
import { Button } from '../../components/button.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { errorMessage } from '../../i18n/error-messages.ts'
import { formatDateTime, statusLabels, type ReportData } from './campaign-types.ts'
import { toastFailure } from '../../components/failure-toast.ts'

// The chart library in a chunk of its own: the totals and the rows paint without it.
const CampaignTimelineChart = lazy(() => import('./campaign-timeline-chart.tsx'))

export const FINISHED_RELOAD_MS = 5_000
const LIVE_REFRESH_MS = 700

function campaignIdOfPath(): number {
  return Number(location.pathname.split('/')[2])
}

export function CampaignReportPage() {
  const { t, i18n } = useLingui()
  const campaignId = campaignIdOfPath()
  const [report, setReport] = useState<ReportData | null>(null)
  const [pages, setPages] = useState(1)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  const load = useCallback(async () => {
    const { data, error } = await api.campaigns({ id: campaignId }).report.get({ query: {} })
    if (error || !data) {
      toastFailure(i18n, error)
      return
    }
    // Rows beyond the first page that were loaded stay (they are refreshed with "load more").
    setReport((current) => (current && pages > 1 ? { ...data, rows: mergeRows(data.rows, current.rows), hasMore: current.hasMore } : data))
  }, [campaignId, i18n, pages])

  useEffect(() => {
    void load()
  }, [])

  useChannel('campaign', (event) => {
    const touched = (event.action === 'progress' && event.campaignId === campaignId) || ((event.action === 'update' || event.action === 'create') && event.record.id === campaignId)
    if (!touched || timer.current) return
    // Progress ticks come many a second on a fast campaign: one reload per interval.
    timer.current = setTimeout(() => {
      timer.current = null
      void load()
    }, LIVE_REFRESH_MS)
  })

  const finished = report?.campaign.status === 'FINALIZADA'
  const seenRunning = useRef(false)
  useEffect(() => {
    if (report && report.campaign.status !== 'FINALIZADA') seenRunning.current = true
    // §4: the report reloads 5 s after seeing FINALIZADA (once: not on a page opened already finished).
    if (!finished || !seenRunning.current) return
    const reload = setTimeout(() => location.reload(), FINISHED_RELOAD_MS)
    return () => clearTimeout(reload)
  }, [finished, report])

  const loadMore = async () => {
    const { data } = await api.campaigns({ id: campaignId }).report.get({ query: { pageNumber: pages + 1 } })
    if (!data) return
    setPages(pages + 1)
    setReport((current) => (current ? { ...current, rows: mergeRows(current.rows, data.rows), hasMore: data.hasMore } : data))
  }

  const exportXlsx = async () => {
    const failure = await saveDownload(`/api/campaigns/${campaignId}/report/export`, () => `campaign-${campaignId}.xlsx`)
    if (failure) showToast('error', errorMessage(i18n, failure))
  }

  if (!report) return <div className="admin-page" aria-busy="true" />
  const { totals, campaign } = report
  const base = Math.max(totals.total, 1)
  const bars: { key: string; label: string; value: number }[] = [
    { key: 'sent', label: t`Sent`, value: totals.sent },
    { key: 'delivered', label: t`Delivered`, value: totals.delivered },
    { key: 'read', label: t`Read`, value: totals.read },
    { key: 'replied', label: t`Replied`, value: totals.replied },
    { key: 'failed', label: t({ message: 'Failed', context: 'campaign total' }), value: totals.failed },
    { key: 'optedOut', label: t`Opted out`, value: totals.optedOut },
  ]
  const chart = report.timeline.map((point) => ({ ...point, at: formatDateTime(point.at, report.timezone).slice(11) }))

  return (
    <div className="admin-page campaign-report">
      <PageHeader title={t`Report: ${campaign.name}`}>
        <a className="button button-secondary" href="/campaigns">
          {t`Back to campaigns`}
        </a>
        <Button variant="secondary" onPress={() => void exportXlsx()}>
          {t`Export .xlsx`}
        </Button>
      </PageHeader>
      <p className="campaign-report-status" role="status">
        <span className={`chip campaign-status campaign-status-${campaign.status.toLowerCase()}`}>{i18n._(statusLabels[campaign.status])}</span>{' '}
        {t`${totals.total} contacts · ${totals.pending} waiting · ${totals.invalid} invalid numbers`}
        {finished ? ` · ${t`Finished at ${formatDateTime(campaign.completedAt, report.timezone)}`}` : null}
      </p>
      {report.pausedConnections.length > 0 ? (
        <p className="form-alert" role="alert">
          {t`WhatsApp restricted a connection of this campaign: its sends are paused until the restriction ends.`}
        </p>
      ) : null}
      <section className="campaign-totals" aria-label={t`Totals`}>
        {bars.map((bar) => (
          <div key={bar.key} className="campaign-total" data-total={bar.key}>
            <div className="campaign-total-head">
              <span>{bar.label}</span>
              <strong data-testid={`total-${bar.key}`}>{bar.value}</strong>
            </div>
            <progress max={base} value={bar.value} aria-label={bar.label} />
          </div>
        ))}
      </section>
      <section className="campaign-chart" aria-label={t`Timeline`}>
        {chart.length > 0 ? (
          <Suspense fallback={<div className="campaign-chart-placeholder" aria-busy="true" style={{ height: 240 }} />}>
            <CampaignTimelineChart points={chart} />
          </Suspense>
        ) : (
          <p className="muted-note">{t`Nothing sent yet.`}</p>
        )}
      </section>
      <table className="admin-table campaign-rows" aria-label={t`Contacts of the campaign`}>
        <thead>
          <tr>
            <th>{t`Name`}</th>
            <th>{t`Number`}</th>
            <th>{t`Variant`}</th>
            <th>{t`Status`}</th>
            <th>{t`Sent at`}</th>
            <th>{t`Delivered`}</th>
            <th>{t`Read`}</th>
            <th>{t`Reply`}</th>
          </tr>
        </thead>
        <tbody>
          {report.rows.map((row) => (
            <tr key={row.id}>
              <td>{row.name}</td>
              <td>{row.number}</td>
              <td>{row.variant}</td>
              <td>{row.optedOut ? t`Opted out` : row.status === 'SENT' ? t`Sent` : row.status === 'FAILED' ? t`Failed: ${row.error ?? ''}` : row.status === 'INVALID' ? t`Invalid number` : t`Waiting`}</td>
              <td>{formatDateTime(row.sentAt, report.timezone)}</td>
              <td>{formatDateTime(row.deliveredAt, report.timezone)}</td>
              <td>{formatDateTime(row.readAt, report.timezone)}</td>
              <td>{row.reply ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.hasMore ? (
        <Button variant="secondary" onPress={() => void loadMore()}>
          {t`Load more`}
        </Button>
      ) : null}
    </div>
  )
}

function mergeRows<Row extends { id: number }>(fresh: Row[], older: Row[]): Row[] {
  const byId = new Map(older.map((row) => [row.id, row]))
  for (const row of fresh) byId.set(row.id, row)
  return [...byId.values()].sort((a, b) => a.id - b.id)
}
