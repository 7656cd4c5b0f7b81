// §4 "Invoice display": paid, open, expired (due date before today and not paid; its row is tinted).
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import type { InvoiceRow } from './billing-types.ts'

const statusLabels = { paid: msg`Paid`, open: msg`Open`, expired: msg`Expired` } as const

export function InvoiceStatusChip({ status }: { status: InvoiceRow['status'] }) {
  const { i18n } = useLingui()
  return <span className={`chip invoice-status invoice-status-${status}`}>{i18n._(statusLabels[status])}</span>
}

export const invoiceRowClass = (invoice: InvoiceRow) => (invoice.status === 'expired' ? 'invoice-row-expired' : undefined)
