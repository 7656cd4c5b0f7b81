// A company's due date with its §9 colour named in words: the row is tinted, and the label says why,
// so the state is not told by colour alone.
import { useLingui } from '@lingui/react/macro'
import { formatCalendarDate } from '../../i18n/format.ts'
import { daysToDue, dueToneOf } from './company-rules.ts'

export function DueDateCell({ dueDate }: { dueDate: string | null }) {
  const { t } = useLingui()
  if (!dueDate) return <span className="muted-note">{t`No due date`}</span>
  const days = daysToDue(dueDate) ?? 0
  const tone = dueToneOf(days)
  const overdue = -days
  const label = days === 0 ? t`Due today` : days === 1 ? t`Due tomorrow` : days > 1 ? t`Due in ${days} days` : overdue === 1 ? t`Overdue by 1 day` : t`Overdue by ${overdue} days`
  return (
    <span className="company-due-cell">
      <span>{formatCalendarDate(dueDate)}</span>
      {tone ? <span className={`company-due-label company-due-label-${tone}`}>{label}</span> : null}
    </span>
  )
}
