// /audit-log: who did what, when and from where (admins: their company; super users: every company),
// newest first, filtered by action, user and dates, page after page.
import '../../styles/two-factor.css'
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { LazySelect } from '../../components/lazy-select.tsx'
import { TextField } from '../../components/text-field.tsx'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import { formatDateTime } from '../../i18n/format.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { auditActionLabels, auditActions } from './audit-actions.ts'
import { toastFailure } from '../../components/failure-toast.ts'

type AuditPage = NonNullable<Awaited<ReturnType<typeof api['audit-log']['get']>>['data']>
type AuditRow = AuditPage['entries'][number]
type Filters = { action: string; userId: string; from: string; to: string }

const ALL = 'all'

/** A date field's day as the start (or end) of that day in the browser's time zone, as ISO. */
function dayBoundary(day: string, end: boolean): string | undefined {
  if (!day) return undefined
  const date = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`)
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
}

function Changes({ before, after }: { before: unknown; after: unknown }) {
  const { t } = useLingui()
  if (before == null && after == null) return null
  return (
    <details className="audit-changes">
      <summary>{t`Before / after`}</summary>
      <div className="audit-changes-grid">
        <pre aria-label={t`Before`}>{JSON.stringify(before, null, 1)}</pre>
        <pre aria-label={t`After`}>{JSON.stringify(after, null, 1)}</pre>
      </div>
    </details>
  )
}

export function AuditLogPage() {
  const { t, i18n } = useLingui()
  const me = useAtomValue(sessionUserAtom)
  const [filters, setFilters] = useState<Filters>({ action: ALL, userId: ALL, from: '', to: '' })
  const [users, setUsers] = useState<{ id: number; name: string }[]>([])
  const set = <Key extends keyof Filters>(key: Key, value: Filters[Key]) => setFilters((current) => ({ ...current, [key]: value }))

  useEffect(() => {
    void api.users.list.get({ query: {} }).then(({ data }) => data && setUsers(data.map((user) => ({ id: user.id, name: user.name }))))
  }, [])

  const fetchPage = useCallback<FetchPage<AuditRow>>(
    async ({ pageNumber }) => {
      const query = {
        pageNumber,
        ...(filters.action !== ALL ? { action: filters.action } : {}),
        ...(filters.userId !== ALL ? { userId: Number(filters.userId) } : {}),
        ...(dayBoundary(filters.from, false) ? { from: dayBoundary(filters.from, false) } : {}),
        ...(dayBoundary(filters.to, true) ? { to: dayBoundary(filters.to, true) } : {}),
      }
      const { data, error } = await api['audit-log'].get({ query })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      return { items: data.entries, hasMore: data.hasMore }
    },
    [filters, i18n],
  )
  // The filters are the list's key: a change starts again from page 1.
  const list = usePagedList(fetchPage, JSON.stringify(filters))
  const userNames = useMemo(() => new Map(users.map((user) => [user.id, user.name])), [users])

  const columns = useMemo<AdminColumn<AuditRow>[]>(
    () => [
      { id: 'when', header: () => t`When`, cell: ({ row }) => formatDateTime(row.original.createdAt) },
      {
        id: 'who',
        header: () => t`Who`,
        cell: ({ row }) => {
          const actor = row.original.actorUserId
          return actor === null ? <span className="user-muted">{t`System`}</span> : (userNames.get(actor) ?? `#${actor}`)
        },
      },
      ...(me?.super ? [{ id: 'company', header: () => t`Company`, cell: ({ row }) => (row.original.companyId === null ? t`Platform` : `#${row.original.companyId}`) } satisfies AdminColumn<AuditRow>] : []),
      {
        id: 'action',
        header: () => t`Action`,
        cell: ({ row }) => {
          const label = auditActionLabels[row.original.action]
          return (
            <>
              {label ? i18n._(label) : row.original.action}
              {row.original.entityId ? <span className="user-muted"> #{row.original.entityId}</span> : null}
            </>
          )
        },
      },
      {
        id: 'from',
        header: () => t`From`,
        cell: ({ row }) => (
          <span title={row.original.userAgent ?? ''}>
            {row.original.ip ?? '—'}
            <br />
            <span className="user-muted audit-agent">{row.original.userAgent ?? ''}</span>
          </span>
        ),
      },
      { id: 'changes', header: () => t`Changes`, cell: ({ row }) => <Changes before={row.original.before} after={row.original.after} /> },
    ],
    [i18n, me?.super, t, userNames],
  )

  return (
    <div className="admin-page audit-log-page">
      <PageHeader title={t`Audit log`} />
      <div className="audit-filters" role="group" aria-label={t`Filters`}>
        <LazySelect
          label={t`Action`}
          options={[{ id: ALL, label: t`All actions` }, ...auditActions.map((action) => ({ id: action, label: i18n._(auditActionLabels[action]!) }))]}
          value={filters.action}
          onChange={(value) => set('action', String(value ?? ALL))}
        />
        <LazySelect
          label={t`User`}
          options={[{ id: ALL, label: t`All users` }, ...users.map((user) => ({ id: String(user.id), label: user.name }))]}
          value={filters.userId}
          onChange={(value) => set('userId', String(value ?? ALL))}
        />
        <TextField label={t`From`} type="date" name="from" value={filters.from} onChange={(value) => set('from', value)} />
        <TextField label={t`To`} type="date" name="to" value={filters.to} onChange={(value) => set('to', value)} />
      </div>
      <DataTable
        label={t`Audit log`}
        columns={columns}
        rows={list.items}
        rowId={(entry) => entry.id}
        emptyText={t`No entries for these filters.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
    </div>
  )
}
