// The session: the access token in memory only (never in storage), restored on page load from the
// httpOnly refresh cookie. §7: on 403 ERR_SESSION_EXPIRED the token is refreshed once and the request
// retried, with parallel requests queued behind that single refresh; on 401, or 403 again after the
// retry, the session is cleared and the user goes to /login.
import { getDefaultStore } from 'jotai'
import { isPayOnlyPath, LOGIN_PATH, PAY_PATH } from '../routes.ts'
import { payOnlyAtom, planFeaturesAtom, sessionUserAtom, type SessionUser } from '../state/session.ts'
import { readStored, writeStored } from '../state/storage.ts'
import { publicApi } from './public-client.ts'

const store = getDefaultStore()
let accessToken: string | null = null
let refreshing: Promise<RefreshOutcome> | null = null
let leaving = false

export function getAccessToken(): string | null {
  return accessToken
}

export function setSession(signedIn: { token: string; payOnly?: boolean; user: SessionUser & { createdAt?: unknown; updatedAt?: unknown } }): void {
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...user } = signedIn.user
  accessToken = signedIn.token
  store.set(sessionUserAtom, user)
  store.set(payOnlyAtom, signedIn.payOnly === true)
  // Not a secret: tells a page whether a refresh is worth trying (the cookie itself is httpOnly).
  writeStored('companyId', String(user.companyId))
  writeStored('userId', String(user.id))
}

export function updateSessionUser(user: SessionUser): void {
  store.set(sessionUserAtom, user)
}

export function clearSession(): void {
  accessToken = null
  store.set(sessionUserAtom, null)
  store.set(planFeaturesAtom, null)
  store.set(payOnlyAtom, false)
  writeStored('companyId', null)
  writeStored('userId', null)
}

/** Clears the session and leaves for /login, once even when several requests fail together. */
export function endSession(): void {
  clearSession()
  if (leaving) return
  leaving = true
  location.replace(LOGIN_PATH)
}

/** Serialises refreshes across tabs: the refresh token rotates, so two tabs must not spend it at once. */
async function acrossTabs<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined
  return locks ? locks.request('zapdesk-session-refresh', work) : work()
}

export type RefreshOutcome = 'refreshed' | 'rejected' | 'unreachable'

/** One refresh at a time; every caller waiting meanwhile shares its outcome. */
function refreshOnce(): Promise<RefreshOutcome> {
  refreshing ??= (async (): Promise<RefreshOutcome> => {
    try {
      return await acrossTabs(async () => {
        // keepalive: a navigation must not cancel a refresh the server already rotated, or the browser
        // would keep the spent cookie and the next page would be logged out.
        const { data, error, response } = await publicApi.auth.refresh_token.post(undefined, { fetch: { keepalive: true } })
        // Eden reports a network failure as an error without a response.
        if (!response) return 'unreachable'
        if (error || !data) return 'rejected'
        setSession(data)
        return 'refreshed'
      })
    } catch {
      // No answer at all (offline, server restarting): the session may well still be good.
      return 'unreachable'
    } finally {
      refreshing = null
    }
  })()
  return refreshing
}

/** True when a new access token was obtained from the refresh cookie. */
export async function refreshSession(): Promise<boolean> {
  return (await refreshOnce()) === 'refreshed'
}

/** On page load: a session is worth restoring only if this browser signed in before. */
export function restoreSession(): Promise<boolean> {
  if (!readStored('companyId')) return Promise.resolve(false)
  return refreshSession()
}

function secondsLeft(token: string): number {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number }
    return typeof payload.exp === 'number' ? payload.exp - Date.now() / 1000 : 0
  } catch {
    return 0
  }
}

/**
 * A token good for at least another 30 s (the websocket handshake cannot be retried after a 403);
 * null when the session is over; throws when the server cannot be reached (try again later).
 */
export async function freshAccessToken(): Promise<string | null> {
  if (accessToken && secondsLeft(accessToken) > 30) return accessToken
  const outcome = await refreshOnce()
  if (outcome === 'unreachable') throw new Error('the server cannot be reached')
  return outcome === 'refreshed' ? accessToken : null
}

async function errorCodeOf(response: Response): Promise<string | undefined> {
  if (response.ok) return undefined
  try {
    const body = (await response.clone().json()) as { error?: unknown }
    return typeof body.error === 'string' ? body.error : undefined
  } catch {
    return undefined
  }
}

function withToken(init: RequestInit | undefined, token: string | null): RequestInit {
  const headers = new Headers(init?.headers)
  if (token) headers.set('authorization', `Bearer ${token}`)
  return { ...init, headers, credentials: 'include' }
}

const isExpired = (response: Response, code: string | undefined) => response.status === 403 && code === 'ERR_SESSION_EXPIRED'

/** The fetch behind the session client: bearer token, refresh-and-retry, logout on 401. */
async function sessionFetchImplementation(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  // Queued behind a refresh in flight, so that it goes out with the new token.
  if (refreshing) await refreshing
  const tokenUsed = accessToken
  let response = await fetch(input, withToken(init, tokenUsed))
  let code = await errorCodeOf(response)
  if (isExpired(response, code)) {
    // Another request may have refreshed meanwhile: then only the retry is needed.
    const outcome: RefreshOutcome = accessToken !== tokenUsed ? 'refreshed' : await refreshOnce()
    if (outcome === 'unreachable') return response
    if (outcome === 'rejected') {
      endSession()
      return response
    }
    response = await fetch(input, withToken(init, accessToken))
    code = await errorCodeOf(response)
    if (isExpired(response, code)) endSession()
  }
  // A pay-only session (an overdue company's admin signed in to pay) keeps its session: what it may
  // not reach sends it back to the pay page.
  if (code === 'ERR_SUBSCRIPTION_EXPIRED' && store.get(payOnlyAtom)) {
    if (!isPayOnlyPath(location.pathname)) location.replace(PAY_PATH)
    return response
  }
  // A company blocked for its subscription: the sign-in page says why (the expired date).
  if (response.status === 401 || code === 'ERR_COMPANY_INACTIVE' || code === 'ERR_SUBSCRIPTION_EXPIRED') endSession()
  return response
}

export const sessionFetch = sessionFetchImplementation as typeof fetch
