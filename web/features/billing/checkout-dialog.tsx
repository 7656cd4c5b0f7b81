// The checkout (§2 "Checkout", §4, §5): steps 0 data, 1 plan/customise, 2 review, starting at step 1;
// then the Pix screen (QR code, copy, countdown) or the card form. Pays one invoice (or, from the
// subscription page, the oldest unpaid one). A confirmed payment shows the renewal toast and goes to /.
import { useLingui } from '@lingui/react/macro'
import { useAtomValue } from 'jotai'
import { useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { FormAlert } from '../../components/dialog-footer.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { showToast } from '../../components/toasts.tsx'
import { errorMessage } from '../../i18n/error-messages.ts'
import { sessionUserAtom } from '../../state/session.ts'
import type { CheckoutAnswer, CheckoutBody, InvoiceRow, Subscription } from './billing-types.ts'
import { checkCard, checkData, type CardData, type CheckoutData, type FieldErrors } from './checkout-rules.ts'
import { CardStep, DataStep, PlanStep, ReviewStep, type PlanChoice } from './checkout-steps.tsx'
import { PixPanel } from './pix-panel.tsx'
import { useConfirmPayment } from './use-payment-confirmation.ts'

type Stage = 0 | 1 | 2 | 'card' | 'pix'

/** §9 "Checkout defaults": 3 users, 3 connections. */
const DEFAULT_CHOICE: PlanChoice = { users: '3', connections: '3' }

export type CheckoutDialogProps = {
  /** Open for this invoice; `'oldest'`: the oldest unpaid one (the subscription page); null: closed. */
  invoice: InvoiceRow | 'oldest' | null
  /** The new due date once the page heard the payment (the page's usePaymentConfirmation: one toast). */
  paidUntil: string | null
  onClose: () => void
}

export function CheckoutDialog({ invoice, paidUntil, onClose }: CheckoutDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={t`Checkout`} size="large" isOpen={invoice !== null} onOpenChange={(isOpen) => !isOpen && onClose()}>
      {invoice !== null ? <Checkout invoice={invoice === 'oldest' ? null : invoice} paidUntil={paidUntil} onClose={onClose} /> : null}
    </Dialog>
  )
}

function Checkout({ invoice, paidUntil, onClose }: { invoice: InvoiceRow | null; paidUntil: string | null; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const user = useAtomValue(sessionUserAtom)
  const confirmPaid = useConfirmPayment()
  const [stage, setStage] = useState<Stage>(1)
  const [subscription, setSubscription] = useState<Subscription | null>(null)
  const [data, setData] = useState<CheckoutData>({ firstName: user?.name ?? '', lastName: '', address2: '', city: '', state: '', zipcode: '', country: 'BR' })
  const [choice, setChoice] = useState<PlanChoice>(DEFAULT_CHOICE)
  const [card, setCard] = useState<CardData>({ nameOnCard: '', cardNumber: '', expiry: '', cvv: '' })
  const [dataErrors, setDataErrors] = useState<FieldErrors<keyof CheckoutData>>({})
  const [cardErrors, setCardErrors] = useState<ReturnType<typeof checkCard>>({})
  const [formError, setFormError] = useState<string>()
  const [pending, setPending] = useState(false)
  const [pix, setPix] = useState<CheckoutAnswer | null>(null)

  useEffect(() => {
    void api.subscription.get().then(({ data: summary }) => summary && setSubscription(summary))
  }, [])

  const amount = invoice?.value ?? subscription?.periodValue ?? 0
  const dueDate = invoice?.dueDate ?? subscription?.dueDate ?? null
  const changeData = <Key extends keyof CheckoutData>(key: Key, value: CheckoutData[Key]) => setData((current) => ({ ...current, [key]: value }))
  const changeCard = <Key extends keyof CardData>(key: Key, value: CardData[Key]) => setCard((current) => ({ ...current, [key]: value }))

  /** Step 1's Next goes to review once step 0 is complete, and to step 0 (with what is missing) before. */
  const next = () => {
    const errors = checkData(data)
    setDataErrors(stage === 0 ? errors : {})
    if (Object.keys(errors).length > 0) {
      if (stage === 0) return
      setStage(0)
      return
    }
    setStage(2)
  }

  const pay = async (withCard: boolean) => {
    if (withCard) {
      const errors = checkCard(card, data)
      setCardErrors(errors)
      if (Object.keys(errors).length > 0) return
    }
    const body: CheckoutBody = {
      ...data,
      useAddressForPaymentDetails: true,
      users: Number(choice.users) || 3,
      connections: Number(choice.connections) || 3,
      price: amount,
      plan: subscription?.plan?.name ?? '',
      ...(invoice ? { invoiceId: invoice.id } : {}),
      ...(withCard ? { nameOnCard: card.nameOnCard, cardNumber: card.cardNumber.replace(/\s/g, ''), expiry: card.expiry, cvv: card.cvv } : {}),
    }
    setPending(true)
    setFormError(undefined)
    try {
      const { data: answer, error } = await api.subscription.post(body)
      if (error || !answer) {
        const refusal = apiErrorOf(error)
        const text = refusal.code === 'ERR_PAYMENT_REFUSED' && refusal.reason ? refusal.reason : errorMessage(i18n, refusal.code)
        setFormError(text)
        showToast('error', text)
        return
      }
      // The card's data leaves the page's state as soon as the provider answered.
      setCard({ nameOnCard: '', cardNumber: '', expiry: '', cvv: '' })
      if (answer.method === 'pix') {
        setPix(answer)
        setStage('pix')
      } else if (answer.status === 'paid' && answer.dueDate) {
        confirmPaid(answer.dueDate)
      } else {
        showToast('info', t`Payment sent. It will be confirmed by the card issuer shortly.`)
        onClose()
      }
    } catch (failure) {
      setFormError(errorMessage(i18n, apiErrorOf(failure).code))
    } finally {
      setPending(false)
    }
  }

  const stepLabels = [t`Data`, t`Plan`, t`Review`]
  return (
    <div className="checkout">
      {typeof stage === 'number' ? (
        <ol className="checkout-steps" aria-label={t`Steps`}>
          {stepLabels.map((label, index) => (
            <li key={label} className={index === stage ? 'checkout-step checkout-step-current' : 'checkout-step'} aria-current={index === stage ? 'step' : undefined}>
              <span className="checkout-step-number">{index + 1}</span> {label}
            </li>
          ))}
        </ol>
      ) : null}
      <FormAlert text={formError} />
      {stage === 0 ? <DataStep data={data} errors={dataErrors} onChange={changeData} /> : null}
      {stage === 1 ? <PlanStep subscription={subscription} amount={amount} choice={choice} onChange={(key, value) => setChoice((current) => ({ ...current, [key]: value }))} /> : null}
      {stage === 2 ? <ReviewStep data={data} choice={choice} amount={amount} dueDate={dueDate} subscription={subscription} /> : null}
      {stage === 'card' ? <CardStep card={card} data={data} errors={cardErrors} onCard={changeCard} onData={changeData} /> : null}
      {stage === 'pix' && pix ? <PixPanel pix={pix} paidUntil={paidUntil} /> : null}
      <div className="dialog-actions">
        {stage === 'pix' ? (
          <Button variant="secondary" onPress={onClose}>
            {t`Close`}
          </Button>
        ) : (
          <>
            <Button variant="secondary" onPress={() => (stage === 0 ? onClose() : setStage(stage === 'card' ? 2 : stage === 2 ? 1 : 0))}>
              {stage === 0 ? t`Cancel` : t`Back`}
            </Button>
            {stage === 0 || stage === 1 ? <Button onPress={next}>{t`Next`}</Button> : null}
            {stage === 2 ? (
              <>
                <Button variant="secondary" onPress={() => setStage('card')}>
                  {t`Pay by card`}
                </Button>
                <Button onPress={() => void pay(false)} isPending={pending}>
                  {t`Pay with Pix`}
                </Button>
              </>
            ) : null}
            {stage === 'card' ? (
              <Button onPress={() => void pay(true)} isPending={pending}>
                {t`Pay now`}
              </Button>
            ) : null}
          </>
        )}
      </div>
    </div>
  )
}
