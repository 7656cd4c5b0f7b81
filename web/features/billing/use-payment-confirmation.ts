// §4 Checkout / §8 "Pix paid": when the `payment` channel says CONCLUIDA, a toast says the license was
// renewed until the new due date and, 4 seconds later, the browser goes to /.
import { useLingui } from '@lingui/react/macro'
import { atom, useAtom, useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { formatCalendarDate } from '../../i18n/format.ts'

export const AFTER_PAYMENT_REDIRECT_MS = 4000

/** The new due date once paid: set by the channel or by a card paid at once, whichever comes first. */
const paidUntilAtom = atom<string | null>(null)

/** The new due date once paid (null before). One per page: the page passes it down to its checkout. */
export function usePaymentConfirmation(): string | null {
  const { t } = useLingui()
  const [paidUntil, setPaidUntil] = useAtom(paidUntilAtom)
  useChannel('payment', (frame) => {
    if (frame.action === 'CONCLUIDA') setPaidUntil((current) => current ?? frame.company.dueDate)
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

/**
 * A card paid at once confirms the way the channel does: its answer and the CONCLUIDA frame both
 * arrive, and the page shows one toast and leaves once.
 */
export function useConfirmPayment(): (dueDate: string) => void {
  const setPaidUntil = useSetAtom(paidUntilAtom)
  return (dueDate) => setPaidUntil((current) => current ?? dueDate)
}
