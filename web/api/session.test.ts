// §7 session rules of the client, against a scripted fetch: one refresh for parallel expired requests,
// each retried with the new token; logout on 401 and on a second expiry; other 403s left alone.
import { afterAll, beforeEach, describe, expect, mock, test } from 'bun:test'
import type { SessionUser } from '../state/session.ts'

type Answer = { status: number; body: unknown }
const replaced: string[] = []
const location = { origin: 'http://app.test', href: 'http://app.test/tickets', replace: mock((path: string) => void replaced.push(path)) }
const realFetch = globalThis.fetch
Object.assign(globalThis, { location })
// Other files may share this process: leave the globals as they were.
afterAll(() => {
  globalThis.fetch = realFetch
  Reflect.deleteProperty(globalThis, 'location')
})

let refreshCalls = 0
let issued = 0
/** What a protected endpoint answers for a given token. */
let protectedAnswer: (token: string | null) => Answer = () => ({ status: 200, body: { ok: true } })
let refreshAnswer: () => Answer = () => ({ status: 200, body: signedIn(`token-${++issued}`) })
const seenTokens: (string | null)[] = []

function signedIn(token: string): { token: string; user: SessionUser } {
  return { token, user: { id: 7, companyId: 3, name: 'Ana', email: 'ana@example.com', profile: 'user', super: false, whatsappId: null, allTicket: 'desabled', online: true, language: null, queues: [], company: { id: 3, name: 'Acme', email: '', dueDate: null, trialExpiration: null, settings: [] } } }
}

globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = String(input instanceof Request ? input.url : input)
  const json = (answer: Answer) => new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } })
  if (url.endsWith('/api/auth/refresh_token')) {
    refreshCalls += 1
    // Slow enough for parallel requests to pile up behind it.
    await Bun.sleep(20)
    return json(refreshAnswer())
  }
  const header = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('authorization')
  const token = header ? header.replace('Bearer ', '') : null
  seenTokens.push(token)
  return json(protectedAnswer(token))
}) as typeof fetch

const session = await import('./session.ts')
const { api } = await import('./client.ts')

beforeEach(() => {
  refreshCalls = 0
  replaced.length = 0
  seenTokens.length = 0
  refreshAnswer = () => ({ status: 200, body: signedIn(`token-${++issued}`) })
  session.setSession(signedIn('stale'))
})

const expired: Answer = { status: 403, body: { error: 'ERR_SESSION_EXPIRED' } }

describe('the session client', () => {
  test('parallel requests with an expired token share one refresh, then each is retried with the new token', async () => {
    protectedAnswer = (token) => (token === 'stale' ? expired : { status: 200, body: { version: token } })
    const results = await Promise.all([api.version.get(), api.version.get(), api.version.get()])
    expect(refreshCalls).toBe(1)
    const fresh = session.getAccessToken()
    expect(fresh).toStartWith('token-')
    for (const result of results) expect(result.data).toEqual({ version: fresh! })
    expect(seenTokens.filter((token) => token === 'stale')).toHaveLength(3)
    expect(seenTokens.filter((token) => token === fresh)).toHaveLength(3)
    expect(replaced).toEqual([])
  })

  test('a request sent while a refresh is in flight waits for it and goes out with the new token', async () => {
    protectedAnswer = (token) => (token === 'stale' ? expired : { status: 200, body: { version: token } })
    const refreshing = session.refreshSession()
    const result = await api.version.get()
    await refreshing
    expect(refreshCalls).toBe(1)
    expect(seenTokens).toEqual([session.getAccessToken()])
    expect(result.data).toEqual({ version: session.getAccessToken()! })
  })

  test('401 clears the session and goes to /login', async () => {
    protectedAnswer = () => ({ status: 401, body: { error: 'ERR_UNAUTHORIZED' } })
    await api.version.get()
    expect(session.getAccessToken()).toBeNull()
    expect(replaced).toEqual(['/login'])
    expect(refreshCalls).toBe(0)
  })

  test('an unreachable server during the refresh is not a logout', async () => {
    protectedAnswer = () => expired
    refreshAnswer = () => {
      throw new TypeError('Failed to fetch')
    }
    const result = await api.version.get()
    expect(result.status).toBe(403)
    expect(session.getAccessToken()).toBe('stale')
  })

  test('still expired after the retry, or a failed refresh: logout', async () => {
    protectedAnswer = () => expired
    await api.version.get()
    expect(refreshCalls).toBe(1)
    expect(session.getAccessToken()).toBeNull()

    session.setSession(signedIn('stale'))
    refreshAnswer = () => ({ status: 401, body: { error: 'ERR_UNAUTHORIZED' } })
    await api.version.get()
    expect(session.getAccessToken()).toBeNull()
  })

  test('a 403 for a missing permission is an answer, not a session problem', async () => {
    protectedAnswer = () => ({ status: 403, body: { error: 'ERR_NO_PERMISSION' } })
    const result = await api.version.get()
    expect(result.status).toBe(403)
    expect(refreshCalls).toBe(0)
    expect(session.getAccessToken()).toBe('stale')
  })
})
