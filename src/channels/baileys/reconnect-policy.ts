// When and how a lost WhatsApp connection comes back: the backoff, the QR patience, and what a close means.
import { DisconnectReason } from '@whiskeysockets/baileys'

/** Runs `run` after `delayMs`; returns a cancel function. Injectable so tests drive time. */
export type Scheduler = (run: () => void, delayMs: number) => () => void

export type BackoffPolicy = { baseMs: number; factor: number; capMs: number }
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, factor: 2, capMs: 60_000 }
/** QR codes shown without a scan before the connection gives up with TIMEOUT (WhatsApp rotates them every ~20 s). */
export const DEFAULT_MAX_QR_CODES = 6

/** Full jitter: a uniform delay below the exponential ceiling, so that many connections do not retry in step. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * policy.factor ** Math.max(0, attempt - 1))
  return Math.floor(random() * ceiling)
}

export const defaultScheduler: Scheduler = (run, delayMs) => {
  const timer = setTimeout(run, delayMs)
  return () => clearTimeout(timer)
}

/** The HTTP-like status code Baileys puts on a disconnect error (a Boom). */
export function disconnectCode(error: Error | undefined): number | undefined {
  const output = (error as { output?: { statusCode?: unknown } } | undefined)?.output
  return typeof output?.statusCode === 'number' ? output.statusCode : undefined
}


export type CloseAction = 'logged-out' | 'stop' | 'reopen-now' | 'backoff'

/** What to do when a socket closes on its own, from its status code and whether it was showing a QR. */
export function closeAction(code: number | undefined, socket: { sawQr: boolean; opened: boolean }): CloseAction {
  if (code === DisconnectReason.loggedOut) return 'logged-out'
  // Banned, or the session was taken over elsewhere: coming back would only fight over it.
  if (code === DisconnectReason.forbidden || code === DisconnectReason.connectionReplaced) return 'stop'
  // After pairing WhatsApp asks for a restart; a QR that ran out of refs just needs a new socket
  // (the QR count, not a backoff, bounds that loop).
  if (code === DisconnectReason.restartRequired || (socket.sawQr && !socket.opened)) return 'reopen-now'
  return 'backoff'
}
