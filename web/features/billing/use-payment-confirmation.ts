// §4 Checkout / §8 "Pix paid": when the `payment` channel says CONCLUIDA, a toast says the license was
// renewed until the new due date and, 4 seconds later, the browser goes to /.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { formatCalendarDate } from '../../i18n/format.ts'

export const AFTER_PAYMENT_REDIRECT_MS = 4000

/** The new due date once paid (null before). One per page: the page passes it down to its checkout. */
export function usePaymentConfirmation(): string | null {
  const { t } = useLingui()
  const [paidUntil, setPaidUntil] = useState<string | null>(null)
  useChannel('payment', (frame) => {
    if (frame.action === 'CONCLUIDA' && !paidUntil) setPaidUntil(frame.company.dueDate)
  })
  useEffect(() => {
    if (!paidUntil) return
    const until = formatCalendarDate(paidUntil)
    showToast('success', t`Payment confirmed! Your license was renewed until ${until}.`)
    const timer = setTimeout(() => location.assign('/'), AFTER_PAYMENT_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [paidUntil, t])
  return paidUntil
}
