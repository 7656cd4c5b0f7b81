// A local stand-in for the part of Asaas's documented API that billing uses (https://docs.asaas.com):
// POST /v3/customers, POST /v3/payments (PIX and CREDIT_CARD), GET /v3/payments/{id},
// GET /v3/payments/{id}/pixQrCode, authenticated by the access_token header; and, driven by the test,
// the payment being paid and the webhook Asaas would send (header asaas-access-token). Checks what
// the real API requires, so a request the adapter builds wrongly fails here too.

type FakePayment = { id: string; customer: string; billingType: string; value: number; dueDate: string; status: string; externalReference: string | null; description: string }
type ApiError = { errors: { code: string; description: string }[] }

/** A 1x1 PNG: the fake's QR code image (the real one encodes `payload`; the page draws it from that). */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

/** The number Asaas's sandbox documents as declined: the fake declines it too. */
export const DECLINED_CARD = '5184019740373151'

const isDate = (value: unknown) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)

export function startFakeAsaas(options: { token: string }) {
  const customers = new Map<string, { id: string; name: string; cpfCnpj?: string; email?: string }>()
  const payments = new Map<string, FakePayment>()
  /** Every request the platform made: method, path, and whether it carried card data (never the data). */
  const requests: { method: string; path: string; hasCard: boolean }[] = []
  let sequence = 0
  const nextId = (prefix: string) => `${prefix}_${String(++sequence).padStart(12, '0')}`
  let unavailable = false

  const json = (status: number, body: unknown) => Response.json(body, { status })
  const invalid = (description: string, code = 'invalid_action'): Response => json(400, { errors: [{ code, description }] } satisfies ApiError)
  const view = (payment: FakePayment) => ({ object: 'payment', ...payment, netValue: payment.value, invoiceUrl: `https://sandbox.asaas.com/i/${payment.id}` })

  function createPayment(body: Record<string, unknown>): Response {
    const customer = typeof body.customer === 'string' ? customers.get(body.customer) : undefined
    if (!customer) return invalid('Customer inválido ou não informado.', 'invalid_customer')
    if (!['PIX', 'CREDIT_CARD', 'BOLETO', 'UNDEFINED'].includes(String(body.billingType))) return invalid('Forma de pagamento inválida.', 'invalid_billingType')
    if (typeof body.value !== 'number' || body.value <= 0) return invalid('O valor deve ser maior que zero.', 'invalid_value')
    if (!isDate(body.dueDate)) return invalid('Data de vencimento inválida.', 'invalid_dueDate')
    let status = 'PENDING'
    if (body.billingType === 'CREDIT_CARD') {
      const card = body.creditCard as Record<string, unknown> | undefined
      const holder = body.creditCardHolderInfo as Record<string, unknown> | undefined
      for (const field of ['holderName', 'number', 'expiryMonth', 'expiryYear', 'ccv']) if (!card?.[field]) return invalid(`O campo creditCard.${field} deve ser informado.`, 'invalid_creditCard')
      for (const field of ['name', 'email', 'cpfCnpj', 'postalCode', 'addressNumber', 'phone']) if (!holder?.[field]) return invalid(`O campo creditCardHolderInfo.${field} deve ser informado.`, 'invalid_creditCardHolderInfo')
      if (!body.remoteIp) return invalid('O campo remoteIp deve ser informado.', 'invalid_remoteIp')
      if (card!.number === DECLINED_CARD) return invalid('Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.', 'invalid_creditCard')
      status = 'CONFIRMED'
    }
    const payment: FakePayment = {
      id: nextId('pay'),
      customer: customer.id,
      billingType: String(body.billingType),
      value: body.value,
      dueDate: String(body.dueDate),
      status,
      externalReference: typeof body.externalReference === 'string' ? body.externalReference : null,
      description: typeof body.description === 'string' ? body.description : '',
    }
    payments.set(payment.id, payment)
    return json(200, view(payment))
  }

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      const body = request.method === 'POST' ? ((await request.json().catch(() => ({}))) as Record<string, unknown>) : {}
      requests.push({ method: request.method, path: url.pathname, hasCard: 'creditCard' in body })
      if (unavailable) return json(503, { errors: [{ code: 'unavailable', description: 'Service unavailable' }] })
      if (request.headers.get('access_token') !== options.token) return json(401, { errors: [{ code: 'invalid_access_token', description: 'A chave de API fornecida é inválida' }] })
      if (request.method === 'POST' && url.pathname === '/v3/customers') {
        if (typeof body.name !== 'string' || !body.name) return invalid('O campo name deve ser informado.', 'invalid_name')
        const customer = { id: nextId('cus'), name: body.name, cpfCnpj: body.cpfCnpj as string | undefined, email: body.email as string | undefined }
        customers.set(customer.id, customer)
        return json(200, { object: 'customer', ...customer })
      }
      if (request.method === 'POST' && url.pathname === '/v3/payments') return createPayment(body)
      const qr = /^\/v3\/payments\/([^/]+)\/pixQrCode$/.exec(url.pathname)
      if (request.method === 'GET' && qr) {
        const payment = payments.get(decodeURIComponent(qr[1]!))
        if (!payment) return json(404, { errors: [{ code: 'not_found', description: 'Cobrança não encontrada.' }] })
        const payload = `00020101021226820014br.gov.bcb.pix2560fake.asaas.local/qr/${payment.id}5204000053039865406${payment.value.toFixed(2)}5802BR6304ABCD`
        return json(200, { encodedImage: TINY_PNG, payload, expirationDate: `${payment.dueDate} 23:59:59` })
      }
      const one = /^\/v3\/payments\/([^/]+)$/.exec(url.pathname)
      if (request.method === 'GET' && one) {
        const payment = payments.get(decodeURIComponent(one[1]!))
        return payment ? json(200, view(payment)) : json(404, { errors: [{ code: 'not_found', description: 'Cobrança não encontrada.' }] })
      }
      return json(404, { errors: [{ code: 'not_found', description: 'Not found' }] })
    },
  })

  let eventSequence = 0
  return {
    url: `http://127.0.0.1:${server.port}/v3`,
    requests,
    payments,
    customers,
    /** Makes the fake answer 503 to everything (the provider is down). */
    setUnavailable(value: boolean) {
      unavailable = value
    },
    /** The customer paid the charge (Pix received). */
    markReceived(chargeId: string) {
      const payment = payments.get(chargeId)
      if (!payment) throw new Error(`no fake payment ${chargeId}`)
      payment.status = 'RECEIVED'
    },
    /** The body Asaas posts to a webhook for a payment event. */
    webhookBody(input: { event: string; chargeId: string; eventId?: string }) {
      const payment = payments.get(input.chargeId)
      return {
        id: input.eventId ?? `evt_${String(++eventSequence).padStart(8, '0')}&${Date.now()}`,
        event: input.event,
        dateCreated: new Date().toISOString().slice(0, 19).replace('T', ' '),
        payment: payment ? view(payment) : { object: 'payment', id: input.chargeId, status: 'RECEIVED', value: 1 },
      }
    },
    /** Posts the webhook as Asaas would: JSON, with the asaas-access-token header. */
    async sendWebhook(target: string, input: { body: object; token: string | undefined }) {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (input.token !== undefined) headers['asaas-access-token'] = input.token
      return fetch(target, { method: 'POST', headers, body: JSON.stringify(input.body) })
    },
    stop: () => server.stop(true),
  }
}

export type FakeAsaas = ReturnType<typeof startFakeAsaas>
