// An OAuth2 access token for a Google service account, without Google's SDK: a JWT signed (RS256)
// with the account's private key is exchanged at the account's token_uri (RFC 7523). Tokens are kept
// in memory until a minute before they expire, per key.
import { createHash, createSign } from 'node:crypto'
import type { Deps } from '../deps.ts'
import { OutboundError, redactUrl } from '../../core/http/guarded-fetch.ts'
import { AppError } from '../../core/errors.ts'
import { IntegrationFailed } from './bot-reply.ts'

export type ServiceAccount = { clientEmail: string; privateKey: string; tokenUri: string; projectId: string }

const dialogflowScope = 'https://www.googleapis.com/auth/cloud-platform'

/** The service-account key (jsonContent) read; a key that is not one is ERR_INTEGRATION_INVALID_CREDENTIALS. */
export function readServiceAccount(jsonContent: string): ServiceAccount {
  let parsed: unknown
  try {
    parsed = JSON.parse(jsonContent)
  } catch {
    throw new AppError('ERR_INTEGRATION_INVALID_CREDENTIALS', { reason: 'jsonContent is not JSON' })
  }
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {}
  const field = (name: string) => (typeof record[name] === 'string' ? (record[name] as string) : '')
  const account = { clientEmail: field('client_email'), privateKey: field('private_key'), tokenUri: field('token_uri') || 'https://oauth2.googleapis.com/token', projectId: field('project_id') }
  if (account.clientEmail === '' || !account.privateKey.includes('PRIVATE KEY')) {
    throw new AppError('ERR_INTEGRATION_INVALID_CREDENTIALS', { reason: 'jsonContent is not a service-account key (client_email and private_key)' })
  }
  return account
}

function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString('base64url')
}

export function signedAssertion(account: ServiceAccount, now: Date): string {
  const issuedAt = Math.floor(now.getTime() / 1000)
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))
  const claims = base64url(JSON.stringify({ iss: account.clientEmail, scope: dialogflowScope, aud: account.tokenUri, iat: issuedAt, exp: issuedAt + 3600 }))
  let signature: Buffer
  try {
    signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(account.privateKey)
  } catch {
    throw new AppError('ERR_INTEGRATION_INVALID_CREDENTIALS', { reason: 'private_key is not a usable RSA key' })
  }
  return `${header}.${claims}.${base64url(signature)}`
}

const cache = new Map<string, { token: string; expiresAt: number }>()

function cacheKey(account: ServiceAccount): string {
  return createHash('sha256').update(`${account.tokenUri}\n${account.clientEmail}\n${account.privateKey}`).digest('hex')
}

/** A valid access token; Google refusing the key is ERR_INTEGRATION_AUTH_FAILED, not reaching it IntegrationFailed. */
export async function accessTokenFor(deps: Pick<Deps, 'outbound' | 'now'>, account: ServiceAccount): Promise<string> {
  const key = cacheKey(account)
  const now = deps.now().getTime()
  const cached = cache.get(key)
  if (cached && cached.expiresAt > now) return cached.token
  const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: signedAssertion(account, deps.now()) })
  let response
  try {
    response = await deps.outbound.request({
      url: account.tokenUri,
      method: 'POST',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      timeoutMs: 10_000,
      maxResponseBytes: 64 * 1024,
      maxRedirects: 0,
    })
  } catch (error) {
    if (error instanceof OutboundError) throw new IntegrationFailed(`${redactUrl(account.tokenUri)}: ${error.kind}: ${error.message}`)
    throw error
  }
  if (response.status === 400 || response.status === 401 || response.status === 403) {
    throw new AppError('ERR_INTEGRATION_AUTH_FAILED', { reason: `the token endpoint refused the key (${response.status})` })
  }
  if (!response.ok) throw new IntegrationFailed(`${redactUrl(account.tokenUri)} answered ${response.status}`, response.status)
  let answer: { access_token?: unknown; expires_in?: unknown }
  try {
    answer = response.json() as typeof answer
  } catch {
    throw new IntegrationFailed('the token answer is not JSON')
  }
  if (typeof answer.access_token !== 'string' || answer.access_token === '') throw new IntegrationFailed('the token answer has no access_token')
  const lifetimeS = typeof answer.expires_in === 'number' ? answer.expires_in : 3600
  cache.set(key, { token: answer.access_token, expiresAt: now + Math.max(0, lifetimeS - 60) * 1000 })
  return answer.access_token
}
