// The `payment` channel (§7): a paid invoice reaches the company's admins as {action: 'CONCLUIDA',
// company: {dueDate}}; the checkout page shows the renewal toast from it and leaves for / (§4 Checkout).
import type { Deps } from '../deps.ts'

export function listenBillingRealtime(deps: Pick<Deps, 'bus' | 'realtime'>): () => void {
  return deps.bus.on('invoice.paid', (event) => {
    deps.realtime.publish({
      companyId: event.companyId,
      channel: 'payment',
      data: { action: 'CONCLUIDA', company: { id: event.companyId, dueDate: event.dueDate }, invoiceId: event.invoiceId },
      audience: { kind: 'company' },
    })
  })
}
