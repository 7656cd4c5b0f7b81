// The provider's webhook (Asaas: https://docs.asaas.com/docs/about-webhooks). Trust nothing in the
// body but ids: the request must carry the platform's webhook token (asaas-access-token); the event is
// recorded (payment_events, keyed by the provider's event id) before the 200, so an acknowledged event
// survives a crash; then the charge is read back from the provider, and only a charge we made for an
// invoice, that the provider itself says is paid, settles anything. Events still 'received' (the
// provider was unreachable, the process died) are processed again by the billing job.
import { timingSafeEqual } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import { invoiceCharges, invoices, paymentEvents } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import type { AsaasWebhookBody } from './model.ts'
import { platformPaymentProvider } from './platform-provider.ts'
import type { ProviderCharge } from './provider.ts'
import { findChargeById, saveCharge } from './queries.ts'
import { settlePaidCharge } from './settle.ts'

/** The events that may mean money arrived; the others are acknowledged and not recorded. */
const paymentEventNames = new Set(['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED'])

function sameToken(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  return a.length === b.length && timingSafeEqual(a, b)
}

export async function receiveAsaasWebhook(deps: Deps, input: { token: string | undefined; body: AsaasWebhookBody; remoteAddress: string | undefined }): Promise<void> {
  if (!sameToken(deps.config.billing.asaasWebhookToken, input.token)) {
    deps.logger.warn('payment webhook refused: wrong or missing token', { event: input.body.event, eventId: input.body.id, from: input.remoteAddress })
    throw new AppError('ERR_UNAUTHORIZED')
  }
  const chargeId = input.body.payment?.id
  if (!paymentEventNames.has(input.body.event) || !chargeId) return
  // Recorded first: from here on the event is ours to finish, whatever happens to this process.
  await deps.db.insert(paymentEvents).values({ id: input.body.id, provider: 'asaas', event: input.body.event, chargeId }).onConflictDoNothing()
  await processPaymentEvent(deps, input.body.id).catch((error: unknown) => {
    // Kept as 'received': the billing job tries again. The provider gets its 200 all the same.
    deps.logger.warn('payment event recorded, processing deferred', { eventId: input.body.id, error: String(error) })
  })
}

async function finish(deps: Deps, eventId: string, status: 'processed' | 'ignored', outcome: string): Promise<void> {
  await deps.db
    .update(paymentEvents)
    .set({ status, outcome, processedAt: deps.now() })
    .where(and(eq(paymentEvents.id, eventId), eq(paymentEvents.status, 'received')))
}

/** Processes one recorded event once; a second call (a redelivery, another instance) does nothing. */
export async function processPaymentEvent(deps: Deps, eventId: string): Promise<void> {
  const [event] = await deps.db.select().from(paymentEvents).where(eq(paymentEvents.id, eventId)).limit(1)
  if (!event || event.status !== 'received') return
  const recorded = await findChargeById(deps.db, event.chargeId)
  const provider = await platformPaymentProvider(deps)
  const charge = await provider.getCharge(event.chargeId)
  const ours = recorded ?? (charge ? await adoptLostCharge(deps, charge) : undefined)
  if (!ours) {
    deps.logger.warn('payment event ignored: a charge we did not make', { eventId, chargeId: event.chargeId })
    return finish(deps, eventId, 'ignored', 'unknown charge')
  }
  if (!charge) {
    deps.logger.warn('payment event ignored: the provider does not know the charge', { eventId, chargeId: event.chargeId })
    return finish(deps, eventId, 'ignored', 'charge not found at the provider')
  }
  if (charge.status !== 'paid') {
    deps.logger.warn('payment event ignored: the provider says the charge is not paid', { eventId, chargeId: event.chargeId, status: charge.providerStatus })
    return finish(deps, eventId, 'ignored', `charge ${charge.providerStatus}`)
  }
  if (charge.value + 0.005 < Number(ours.value)) {
    deps.logger.warn('payment event ignored: paid less than charged', { eventId, chargeId: event.chargeId, paid: charge.value, charged: ours.value })
    return finish(deps, eventId, 'ignored', 'value short')
  }
  const settlement = await settlePaidCharge(deps, { companyId: ours.companyId, invoiceId: ours.invoiceId, charge })
  await finish(deps, eventId, 'processed', settlement.outcome)
}

/**
 * A charge the provider made for one of our invoices (its externalReference, which checkout sets to
 * `invoice:<id>`) whose record we never wrote: the provider answered after our timeout, or the process
 * died, or the database failed, between the charge and saveCharge. The card was charged all the same;
 * the record is written now, from the provider's own account of it, so that the payment settles the
 * invoice instead of being ignored for good (its event id is deduplicated).
 */
async function adoptLostCharge(deps: Deps, charge: ProviderCharge): Promise<typeof invoiceCharges.$inferSelect | undefined> {
  const invoiceId = /^invoice:(\d{1,10})$/.exec(charge.externalReference ?? '')?.[1]
  if (!invoiceId || Number(invoiceId) > 2_147_483_647) return undefined
  const [invoice] = await deps.db.select({ id: invoices.id, companyId: invoices.companyId, value: invoices.value }).from(invoices).where(eq(invoices.id, Number(invoiceId))).limit(1)
  if (!invoice) return undefined
  await saveCharge(deps.db, { chargeId: charge.chargeId, companyId: invoice.companyId, invoiceId: invoice.id, method: charge.method ?? 'pix', value: Number(invoice.value).toFixed(2) })
  deps.logger.warn('payment for a charge whose record was lost: recorded from the provider', { chargeId: charge.chargeId, invoiceId: invoice.id, companyId: invoice.companyId })
  return findChargeById(deps.db, charge.chargeId)
}

/** The events recorded but not finished (a crash, the provider down): the billing job's retry. */
export async function processPendingPaymentEvents(deps: Deps): Promise<number> {
  const pending = await deps.db.select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.status, 'received')).orderBy(asc(paymentEvents.receivedAt)).limit(100)
  for (const event of pending) {
    await processPaymentEvent(deps, event.id).catch((error: unknown) => deps.logger.warn('payment event still pending', { eventId: event.id, error: String(error) }))
  }
  return pending.length
}
