// §7 POST /subscription: pay one of the company's invoices by Pix (a QR code to scan or copy) or by
// card. The amount is the invoice's; the card goes to the provider in the same request and nowhere
// else (not stored, not logged: errors carry the provider's reason, never the request).
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { todayIso } from '../auth/service.ts'
import { cardFrom } from './card-checks.ts'
import type { CheckoutResponse, Invoice, SubscriptionBody } from './model.ts'
import { platformPaymentProvider } from './platform-provider.ts'
import { PaymentRefusedError, PaymentUnavailableError, type PaymentProvider } from './provider.ts'
import { findCustomerId, findInvoice, findOldestUnpaidInvoice, findPayer, insertUpcomingInvoices, saveCharge, saveCustomerId } from './queries.ts'
import { settlePaidCharge } from './settle.ts'

/** The provider's failures in the API's words. */
async function atProvider<T>(deps: Deps, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof PaymentRefusedError) throw new AppError('ERR_PAYMENT_REFUSED', { reason: error.reason })
    if (error instanceof PaymentUnavailableError) {
      deps.logger.warn('payment provider unavailable', { error: error.message })
      throw new AppError('ERR_PAYMENT_PROVIDER_UNAVAILABLE')
    }
    throw error
  }
}

async function invoiceToPay(deps: Deps, input: { companyId: number; invoiceId: number | undefined; today: string }): Promise<Invoice> {
  if (input.invoiceId) return assertPayable(await findInvoice(deps.db, { companyId: input.companyId, invoiceId: input.invoiceId, today: input.today }))
  const open = await findOldestUnpaidInvoice(deps.db, { companyId: input.companyId, today: input.today })
  if (open) return open
  // "Sign now" before the daily run made one (a trial just begun): the current period's invoice, made
  // the same way the job makes it (ON CONFLICT: the job running meanwhile makes no second one).
  await insertUpcomingInvoices(deps.db, { companyId: input.companyId, latestDueDate: '9999-12-31' })
  return assertPayable(await findOldestUnpaidInvoice(deps.db, { companyId: input.companyId, today: input.today }))
}

function assertPayable(invoice: Invoice | undefined): Invoice {
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND')
  if (invoice.status === 'paid') throw new AppError('ERR_INVOICE_ALREADY_PAID')
  return invoice
}

type Payer = NonNullable<Awaited<ReturnType<typeof findPayer>>>

async function customerOf(deps: Deps, provider: PaymentProvider, payer: Payer, body: SubscriptionBody): Promise<string> {
  const known = await findCustomerId(deps.db, payer.id)
  if (known) return known
  const name = payer.name || [body.firstName, body.lastName].filter(Boolean).join(' ')
  const created = await provider.createCustomer({ name, email: payer.email, document: payer.document, phone: payer.phone, externalReference: `company:${payer.id}` })
  return saveCustomerId(deps.db, { companyId: payer.id, provider: provider.name, customerId: created.customerId })
}

export async function startCheckout(deps: Deps, input: { companyId: number; body: SubscriptionBody; remoteIp: string }): Promise<CheckoutResponse> {
  const today = todayIso(deps.now())
  const { body } = input
  const card = body.cardNumber ? cardFrom(body, today) : undefined
  const invoice = await invoiceToPay(deps, { companyId: input.companyId, invoiceId: body.invoiceId, today })
  const payer = (await findPayer(deps.db, input.companyId))!
  const provider = await platformPaymentProvider(deps)
  const customerId = await atProvider(deps, () => customerOf(deps, provider, payer, body))
  // A Pix charge for an invoice already past due is still payable today.
  const charge = { customerId, value: invoice.value, dueDate: invoice.dueDate < today ? today : invoice.dueDate, description: invoice.detail || `Invoice ${invoice.id}`, externalReference: `invoice:${invoice.id}` }
  const valor = { original: invoice.value.toFixed(2) }

  if (!card) {
    const pix = await atProvider(deps, () => provider.createPixCharge(charge))
    await saveCharge(deps.db, { chargeId: pix.chargeId, companyId: input.companyId, invoiceId: invoice.id, method: 'pix', value: valor.original })
    return {
      method: 'pix',
      invoiceId: invoice.id,
      chargeId: pix.chargeId,
      valor,
      qrcode: { qrcode: pix.copyPaste, imagemQrcode: `data:image/png;base64,${pix.qrCodeImage}` },
      expiresAt: pix.expiresAt,
      status: 'pending',
    }
  }

  const holder = {
    name: [body.firstName, body.lastName].filter(Boolean).join(' '),
    email: payer.email,
    document: payer.document,
    postalCode: body.zipcode,
    addressNumber: body.address2,
    phone: payer.phone,
  }
  const paid = await atProvider(deps, () => provider.createCardCharge({ ...charge, card, holder, remoteIp: input.remoteIp }))
  await saveCharge(deps.db, { chargeId: paid.chargeId, companyId: input.companyId, invoiceId: invoice.id, method: 'card', value: valor.original })
  if (paid.status === 'refused') throw new AppError('ERR_PAYMENT_REFUSED', { reason: paid.providerStatus })
  if (paid.status !== 'paid') return { method: 'card', invoiceId: invoice.id, chargeId: paid.chargeId, valor, status: 'pending' }
  // A card approved at once is settled now (the webhook that follows finds the invoice paid).
  const settlement = await settlePaidCharge(deps, { companyId: input.companyId, invoiceId: invoice.id, charge: paid })
  const dueDate = settlement.outcome === 'renewed' ? settlement.dueDate : payer.dueDate
  return { method: 'card', invoiceId: invoice.id, chargeId: paid.chargeId, valor, status: 'paid', dueDate }
}
