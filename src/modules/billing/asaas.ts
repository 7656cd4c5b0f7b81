// The Asaas adapter of the payment provider port (https://docs.asaas.com): customers, Pix and card
// charges, reading a charge back. The base URL (with /v3) chooses sandbox or production and is
// platform configuration (ASAAS_API_URL), never a tenant's: plain fetch with a timeout is enough here,
// and the port keeps the way out swappable for the guarded HTTP client.
import type { CardDetails, CardHolder, ChargeStatus, PaymentProvider, PixCharge, ProviderCharge, ProviderChargeInput, ProviderCustomerInput } from './provider.ts'
import { PaymentRefusedError, PaymentUnavailableError } from './provider.ts'

type AsaasOptions = { baseUrl: string; token: string; timeoutMs: number; fetch?: typeof fetch }

type AsaasPayment = { id: string; status: string; value: number; externalReference?: string | null; billingType?: string }

/** Asaas's payment statuses, in the port's words. */
export function chargeStatusOf(status: string): ChargeStatus {
  if (status === 'RECEIVED' || status === 'CONFIRMED' || status === 'RECEIVED_IN_CASH') return 'paid'
  if (status === 'PENDING' || status === 'AWAITING_RISK_ANALYSIS') return 'pending'
  if (status === 'OVERDUE') return 'overdue'
  if (status === 'REFUNDED' || status === 'REFUND_REQUESTED' || status === 'CHARGEBACK_REQUESTED') return 'refused'
  return 'other'
}

const digits = (value: string) => value.replace(/\D/g, '')

export function createAsaasProvider(options: AsaasOptions): PaymentProvider {
  const send = options.fetch ?? fetch

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; data: T }> {
    let response: Response
    try {
      response = await send(`${options.baseUrl}${path}`, {
        method,
        headers: { access_token: options.token, 'content-type': 'application/json', 'user-agent': 'zapdesk' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: 'error',
      })
    } catch (error) {
      // No request body in the message: a card's data must not reach a log.
      throw new PaymentUnavailableError(`asaas ${method} ${path.split('/').slice(0, 2).join('/')} failed: ${(error as Error).name}`)
    }
    const text = await response.text()
    let data: unknown = null
    try {
      data = text ? JSON.parse(text) : null
    } catch {
      throw new PaymentUnavailableError(`asaas answered ${response.status} with a body that is not JSON`)
    }
    if (response.status === 400) {
      const errors = (data as { errors?: { description?: string }[] } | null)?.errors
      throw new PaymentRefusedError(errors?.map((error) => error.description).filter(Boolean).join('; ') || 'refused by the payment provider')
    }
    if (response.status === 401 || response.status === 403) throw new PaymentUnavailableError(`asaas refused the platform's token (${response.status})`)
    if (response.status >= 500) throw new PaymentUnavailableError(`asaas answered ${response.status}`)
    return { status: response.status, data: data as T }
  }

  const charge = (payment: AsaasPayment): ProviderCharge => ({
    chargeId: payment.id,
    status: chargeStatusOf(payment.status),
    providerStatus: payment.status,
    value: Number(payment.value),
    externalReference: payment.externalReference ?? null,
    ...(payment.billingType === 'PIX' ? { method: 'pix' as const } : payment.billingType === 'CREDIT_CARD' ? { method: 'card' as const } : {}),
  })

  const paymentBody = (input: ProviderChargeInput, billingType: 'PIX' | 'CREDIT_CARD') => ({
    customer: input.customerId,
    billingType,
    value: input.value,
    dueDate: input.dueDate,
    description: input.description,
    externalReference: input.externalReference,
  })

  return {
    name: 'asaas',

    async createCustomer(input: ProviderCustomerInput) {
      const { data } = await call<{ id: string }>('POST', '/customers', {
        name: input.name,
        email: input.email || undefined,
        cpfCnpj: digits(input.document) || undefined,
        mobilePhone: digits(input.phone) || undefined,
        externalReference: input.externalReference,
        notificationDisabled: true,
      })
      if (!data?.id) throw new PaymentUnavailableError('asaas created a customer without an id')
      return { customerId: data.id }
    },

    async createPixCharge(input: ProviderChargeInput): Promise<PixCharge> {
      const { data: payment } = await call<AsaasPayment>('POST', '/payments', paymentBody(input, 'PIX'))
      if (!payment?.id) throw new PaymentUnavailableError('asaas created a payment without an id')
      const { data: qr } = await call<{ encodedImage: string; payload: string; expirationDate?: string | null }>('GET', `/payments/${encodeURIComponent(payment.id)}/pixQrCode`)
      if (!qr?.payload || !qr.encodedImage) throw new PaymentUnavailableError('asaas answered no Pix QR code')
      return { chargeId: payment.id, qrCodeImage: qr.encodedImage, copyPaste: qr.payload, expiresAt: qr.expirationDate ?? null }
    },

    async createCardCharge(input: ProviderChargeInput & { card: CardDetails; holder: CardHolder; remoteIp: string }) {
      const { data } = await call<AsaasPayment>('POST', '/payments', {
        ...paymentBody(input, 'CREDIT_CARD'),
        creditCard: { holderName: input.card.holderName, number: digits(input.card.number), expiryMonth: input.card.expiryMonth, expiryYear: input.card.expiryYear, ccv: input.card.cvv },
        creditCardHolderInfo: {
          name: input.holder.name,
          email: input.holder.email,
          cpfCnpj: digits(input.holder.document),
          postalCode: digits(input.holder.postalCode),
          addressNumber: input.holder.addressNumber,
          phone: digits(input.holder.phone),
        },
        remoteIp: input.remoteIp,
      })
      if (!data?.id) throw new PaymentUnavailableError('asaas created a payment without an id')
      return charge(data)
    },

    async getCharge(chargeId: string) {
      const { status, data } = await call<AsaasPayment>('GET', `/payments/${encodeURIComponent(chargeId)}`)
      if (status === 404 || !data?.id) return null
      return charge(data)
    },
  }
}
