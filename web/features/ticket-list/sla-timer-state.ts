// The service-level timer of a ticket (issue 13): the server sends the deadlines once
// (slaFirstResponseDueAt while no agent took it, then slaResolutionDueAt, and slaWarnAt); the browser
// only compares them with its clock. Pure, so the states and the text are unit-tested.
type Instant = string | Date | null | undefined

export type SlaFields = { slaFirstResponseDueAt?: Instant; slaResolutionDueAt?: Instant; slaWarnAt?: Instant }

export type SlaTimerState = {
  target: 'firstResponse' | 'resolution'
  /** ok: within the target; near: past slaWarnAt (80% of it); breached: past it. */
  level: 'ok' | 'near' | 'breached'
  /** Milliseconds to the deadline; negative once overdue. */
  remainingMs: number
}

const timeOf = (value: Instant) => (value ? new Date(value).getTime() : null)

/** The timer to show now, or null when the ticket's queue has no target (or it is closed). */
export function slaTimerState(ticket: SlaFields, now: number): SlaTimerState | null {
  const firstResponse = timeOf(ticket.slaFirstResponseDueAt)
  const resolution = timeOf(ticket.slaResolutionDueAt)
  const due = firstResponse ?? resolution
  if (due === null) return null
  const warn = timeOf(ticket.slaWarnAt)
  const remainingMs = due - now
  const level = remainingMs <= 0 ? 'breached' : warn !== null && now >= warn ? 'near' : 'ok'
  return { target: firstResponse !== null ? 'firstResponse' : 'resolution', level, remainingMs }
}

/** The time left or overdue as the dashboard writes times: 2h 05m, or 12m 05s under an hour, 3d 4h over a day. */
export function formatSlaDuration(milliseconds: number): string {
  const seconds = Math.floor(Math.abs(milliseconds) / 1000)
  const days = Math.floor(seconds / 86_400)
  const hours = Math.floor((seconds % 86_400) / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const pad = (value: number) => String(value).padStart(2, '0')
  if (days > 0) return `${days}d ${hours}h`
  if (hours > 0) return `${hours}h ${pad(minutes)}m`
  return `${minutes}m ${pad(seconds % 60)}s`
}

const slaKeys = ['slaFirstResponseDueAt', 'slaResolutionDueAt', 'slaWarnAt'] as const

/**
 * A ticket frame without the deadlines (a stored message's: the inbound path does not compute them, and
 * a message changes none) keeps the ones the browser has.
 */
export function keepDeadlines<Ticket extends SlaFields>(incoming: Ticket, known: SlaFields | undefined): Ticket {
  if (!known || 'slaFirstResponseDueAt' in incoming) return incoming
  const kept: SlaFields = {}
  for (const key of slaKeys) kept[key] = known[key]
  return { ...incoming, ...kept }
}
