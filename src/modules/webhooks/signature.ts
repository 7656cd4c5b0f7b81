// How a receiver knows a delivery is ours and fresh: HMAC-SHA256 with the webhook's secret over
// `${timestamp}.${body}`, sent as `X-Zapdesk-Signature: t=<unix seconds>,v1=<hex>`. The timestamp is
// signed so that a captured delivery cannot be replayed later (receivers refuse old ones); the README
// has the verification snippet, which is `verifyWebhookSignature` below.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export const SIGNATURE_HEADER = 'x-zapdesk-signature'
export const DELIVERY_HEADER = 'x-zapdesk-delivery'
export const EVENT_HEADER = 'x-zapdesk-event'

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`
}

/** The secret as lists show it: enough to tell two apart. */
export function secretHint(secret: string): string {
  return `whsec_****${secret.slice(-4)}`
}

export function signWebhookBody(secret: string, timestamp: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  return `t=${timestamp},v1=${digest}`
}

/** The receiver's side: true when the header signs this body with this secret within `toleranceSeconds` of now. */
export function verifyWebhookSignature(input: { secret: string; header: string; body: string; nowSeconds: number; toleranceSeconds?: number }): boolean {
  const parts = Object.fromEntries(input.header.split(',').map((part) => part.split('=', 2) as [string, string]))
  const timestamp = Number(parts.t)
  if (!Number.isInteger(timestamp) || !parts.v1) return false
  if (Math.abs(input.nowSeconds - timestamp) > (input.toleranceSeconds ?? 300)) return false
  const expected = Buffer.from(createHmac('sha256', input.secret).update(`${timestamp}.${input.body}`).digest('hex'))
  const given = Buffer.from(parts.v1)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
