// The payment provider port: what billing needs from a provider (Asaas today, asaas.ts). Services
// depend on this, never on a provider's wire format, so the adapter (and how it reaches the network)
// can be swapped without touching checkout or the webhook.

export type ProviderCustomerInput = {
  name: string
  email: string
  /** CPF or CNPJ, digits only; some providers require it before a charge. */
  document: string
  phone: string
  /** Our reference, so the provider's dashboard leads back to the company. */
  externalReference: string
}

export type ProviderChargeInput = {
  customerId: string
  /** In the currency's units (BRL), two decimals. */
  value: number
  dueDate: string
  description: string
  externalReference: string
}

export type PixCharge = {
  chargeId: string
  /** The QR code as a PNG, base64 without a data: prefix. */
  qrCodeImage: string
  /** The copy-and-paste code (BR Code). */
  copyPaste: string
  expiresAt: string | null
}

/** Card data: handed to the provider in the call and dropped; never stored, never logged. */
export type CardDetails = {
  holderName: string
  number: string
  expiryMonth: string
  expiryYear: string
  cvv: string
}

export type CardHolder = { name: string; email: string; document: string; postalCode: string; addressNumber: string; phone: string }

export type ChargeStatus = 'pending' | 'paid' | 'overdue' | 'refused' | 'other'

export type ProviderCharge = {
  chargeId: string
  status: ChargeStatus
  /** The provider's own word for the status, for logs. */
  providerStatus: string
  value: number
  externalReference: string | null
  /** How it is paid, when the provider says (a charge read back). */
  method?: 'pix' | 'card'
}

export interface PaymentProvider {
  readonly name: string
  createCustomer(input: ProviderCustomerInput): Promise<{ customerId: string }>
  createPixCharge(input: ProviderChargeInput): Promise<PixCharge>
  createCardCharge(input: ProviderChargeInput & { card: CardDetails; holder: CardHolder; remoteIp: string }): Promise<ProviderCharge>
  /** The charge as the provider has it now; null when it does not know the id. */
  getCharge(chargeId: string): Promise<ProviderCharge | null>
}

/** The provider refused the request (bad data, a declined card): the reason is safe to show. */
export class PaymentRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

/** The provider could not be reached or answered something unexpected: try again later. */
export class PaymentUnavailableError extends Error {}
