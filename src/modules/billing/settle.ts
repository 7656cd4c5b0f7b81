// Settling a charge: the provider says it is paid, so its invoice is paid and the company renewed by
// one period from its current due date (§4 Renewal), reactivated, in one transaction. The invoice row
// is locked and checked first, so a charge confirmed twice (the webhook's PAYMENT_CONFIRMED then
// PAYMENT_RECEIVED, a redelivery, a card paid at once and its webhook) renews once.
import { and, eq } from 'drizzle-orm'
import { invoices } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { todayIso } from '../auth/service.ts'
import { findCompanyView, renewCompanyIn } from '../companies/service.ts'
import type { ProviderCharge } from './provider.ts'

export type Settlement = { outcome: 'renewed'; dueDate: string } | { outcome: 'already paid' }

export async function settlePaidCharge(deps: Deps, input: { companyId: number; invoiceId: number; charge: ProviderCharge }): Promise<Settlement> {
  const today = todayIso(deps.now())
  const settlement = await deps.db.transaction(async (tx): Promise<Settlement> => {
    const [invoice] = await tx
      .select({ status: invoices.status })
      .from(invoices)
      .where(and(eq(invoices.companyId, input.companyId), eq(invoices.id, input.invoiceId)))
      .for('update')
    if (!invoice || invoice.status === 'paid') return { outcome: 'already paid' }
    await tx
      .update(invoices)
      .set({ status: 'paid', paidAt: today })
      .where(and(eq(invoices.companyId, input.companyId), eq(invoices.id, input.invoiceId)))
    const renewal = await renewCompanyIn(tx, { companyId: input.companyId, today, reactivate: true })
    return { outcome: 'renewed', dueDate: renewal.dueDate }
  })
  if (settlement.outcome === 'renewed') {
    deps.logger.info('invoice paid, company renewed', { companyId: input.companyId, invoiceId: input.invoiceId, chargeId: input.charge.chargeId, dueDate: settlement.dueDate })
    const view = await findCompanyView(deps.db, input.companyId)
    if (view) await deps.bus.emit('company.changed', { companyId: input.companyId, action: 'update', company: view })
    await deps.bus.emit('invoice.paid', { companyId: input.companyId, invoiceId: input.invoiceId, dueDate: settlement.dueDate, chargeId: input.charge.chargeId })
  }
  return settlement
}
