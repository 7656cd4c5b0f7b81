// The ticket's service-level timer (inbox rows and the ticket header): time left to the first
// response, then to the resolution, or how long it is overdue; green, amber when near, red when
// breached. Nothing when the ticket's queue has no target.
import { useLingui } from '@lingui/react/macro'
import { useNow } from '../../hooks/use-now.ts'
import { formatSlaDuration, slaTimerState, type SlaFields } from './sla-timer-state.ts'

export function SlaTimer({ ticket, className = '' }: { ticket: SlaFields; className?: string }) {
  const { t } = useLingui()
  const timed = Boolean(ticket.slaFirstResponseDueAt || ticket.slaResolutionDueAt)
  const now = useNow(timed)
  const state = timed ? slaTimerState(ticket, now) : null
  if (!state) return null
  const time = formatSlaDuration(state.remainingMs)
  const overdue = state.level === 'breached'
  const label =
    state.target === 'firstResponse'
      ? overdue
        ? t`First response overdue by ${time}`
        : t`First response due in ${time}`
      : overdue
        ? t`Resolution overdue by ${time}`
        : t`Resolution due in ${time}`
  return (
    <span className={`sla-timer sla-${state.level} ${className}`} role="timer" aria-label={label} title={label} data-sla-state={state.level} data-sla-target={state.target}>
      <span className="sla-timer-kind" aria-hidden="true">
        {state.target === 'firstResponse' ? t({ message: '1st reply', context: 'SLA timer, first response' }) : t({ message: 'Resolve', context: 'SLA timer, resolution' })}
      </span>
      <span aria-hidden="true">{overdue ? `-${time}` : time}</span>
    </span>
  )
}
