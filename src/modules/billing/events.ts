// The billing module's domain events (src/modules/events.ts spreads them into the one list).
import { t } from 'elysia'

const companyId = t.Integer({ minimum: 0 })

export const billingEventSchemas = {
  /** An invoice was paid at the provider and the company renewed: its new due date (§7 payment channel). */
  'invoice.paid': t.Object({ companyId, invoiceId: t.Integer({ minimum: 1 }), dueDate: t.String(), chargeId: t.String() }),
}
