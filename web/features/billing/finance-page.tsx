// /financeiro (§2 "Invoices"): the company's invoices, searchable and paged as the user scrolls, each
// paid, open or expired (tinted); Pay opens the checkout for that invoice.
import '../../styles/billing.css'
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { lazy, Suspense, useCallback, useMemo, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { DataTable, type AdminColumn } from '../../components/data-table.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { usePagedList, type FetchPage } from '../../hooks/use-paged-list.ts'
import { formatCalendarDate, formatMoney } from '../../i18n/format.ts'
import type { InvoiceRow } from './billing-types.ts'
import { InvoiceStatusChip, invoiceRowClass } from './invoice-status.tsx'
import { usePaymentConfirmation } from './use-payment-confirmation.ts'
import { sessionUserAtom } from '../../state/session.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const CheckoutDialog = lazyPart(() => import('./checkout-dialog.tsx').then((module) => module.CheckoutDialog))

// Super users only: the chart library comes with it, in a chunk of its own.
const RevenuePanel = lazy(() => import('./revenue-panel.tsx'))

export function FinancePage() {
  const { t, i18n } = useLingui()
  const [search, setSearch] = useState('')
  const [paying, setPaying] = useState<InvoiceRow | null>(null)
  const me = useAtomValue(sessionUserAtom)
  const paidUntil = usePaymentConfirmation()

  const fetchPage = useCallback<FetchPage<InvoiceRow>>(
    async ({ pageNumber, searchParam }) => {
      const { data, error } = await api.invoices.all.get({ query: { pageNumber, ...(searchParam ? { searchParam } : {}) } })
      if (error || !data) {
        toastFailure(i18n, error)
        throw error ?? new Error('no data')
      }
      return { items: data.invoices, hasMore: data.hasMore }
    },
    [i18n],
  )
  const list = usePagedList(fetchPage, search)

  const columns = useMemo<AdminColumn<InvoiceRow>[]>(
    () => [
      { id: 'id', header: () => t`Id`, cell: ({ row }) => row.original.id },
      { id: 'detail', header: () => t`Detail`, cell: ({ row }) => row.original.detail },
      { id: 'value', header: () => t`Value`, cell: ({ row }) => formatMoney(row.original.value, i18n.locale), meta: { align: 'end' } },
      { id: 'dueDate', header: () => t`Due date`, cell: ({ row }) => formatCalendarDate(row.original.dueDate) },
      { id: 'status', header: () => t`Status`, cell: ({ row }) => <InvoiceStatusChip status={row.original.status} /> },
      {
        id: 'actions',
        header: () => t`Actions`,
        meta: { align: 'end' },
        cell: ({ row }) =>
          row.original.status === 'paid' ? null : (
            <Button variant="primary" onPress={() => setPaying(row.original)} aria-label={t`Pay invoice ${row.original.id}`}>
              {t`Pay`}
            </Button>
          ),
      },
    ],
    [i18n.locale, t],
  )

  return (
    <div className="admin-page finance-page">
      <PageHeader title={t`Invoices`} onSearch={setSearch} searchLabel={t`Search invoices`}>
        <a className="button button-secondary" href="/subscription">
          {t`Subscription`}
        </a>
      </PageHeader>
      {me?.super ? (
        <Suspense fallback={null}>
          <RevenuePanel />
        </Suspense>
      ) : null}
      <DataTable
        label={t`Invoices`}
        columns={columns}
        rows={list.items}
        rowId={(invoice) => invoice.id}
        rowClassName={invoiceRowClass}
        emptyText={search ? t`No invoice matches the search.` : t`No invoices yet.`}
        loading={list.loading}
        loadingText={t`Loading…`}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
      />
      <CheckoutDialog invoice={paying} paidUntil={paidUntil} onClose={() => setPaying(null)} />
    </div>
  )
}
