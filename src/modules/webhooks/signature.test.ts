import { describe, expect, test } from 'bun:test'
import { newWebhookSecret, secretHint, signWebhookBody, verifyWebhookSignature } from './signature.ts'

describe('webhook signatures', () => {
  const secret = newWebhookSecret()
  const body = JSON.stringify({ event: 'ticket.created', data: { id: 1 } })

  test('a signed body verifies with its secret, within the tolerance', () => {
    const header = signWebhookBody(secret, 1_700_000_000, body)
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/)
    expect(verifyWebhookSignature({ secret, header, body, nowSeconds: 1_700_000_100 })).toBe(true)
  })

  test('another secret, another body, or an old timestamp do not verify', () => {
    const header = signWebhookBody(secret, 1_700_000_000, body)
    expect(verifyWebhookSignature({ secret: newWebhookSecret(), header, body, nowSeconds: 1_700_000_000 })).toBe(false)
    expect(verifyWebhookSignature({ secret, header, body: `${body} `, nowSeconds: 1_700_000_000 })).toBe(false)
    expect(verifyWebhookSignature({ secret, header, body, nowSeconds: 1_700_001_000 })).toBe(false)
    expect(verifyWebhookSignature({ secret, header: 'garbage', body, nowSeconds: 1_700_000_000 })).toBe(false)
  })

  test('the hint shows only the last characters', () => {
    expect(secretHint('whsec_abcdefgh1234')).toBe('whsec_****1234')
  })
})
