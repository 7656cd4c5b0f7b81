// /subscription (§2 "Subscription"): the trial days remaining (from trialExpiration), the billing
// e-mail, the due date and plan, and the sign-now button that opens the checkout.
import '../../styles/billing.css'
import { plural } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { PageHeader } from '../../components/page-header.tsx'
import { formatCalendarDate, formatMoney } from '../../i18n/format.ts'
import type { Subscription } from './billing-types.ts'
import { usePaymentConfirmation } from './use-payment-confirmation.ts'
import { lazyPart } from '../../components/lazy-part.tsx'
import { toastFailure } from '../../components/failure-toast.ts'

// Dialogs: chunks of their own, fetched when first rendered (lazy-part.tsx).
const CheckoutDialog = lazyPart(() => import('./checkout-dialog.tsx').then((module) => module.CheckoutDialog))

export function SubscriptionPage() {
  const { t, i18n } = useLingui()
  const [subscription, setSubscription] = useState<Subscription | null>(null)
  const [checkout, setCheckout] = useState(false)
  const paidUntil = usePaymentConfirmation()

  useEffect(() => {
    void api.subscription.get().then(({ data, error }) => {
      if (data) setSubscription(data)
      else toastFailure(i18n, error)
    })
  }, [i18n])

  const days = subscription?.trialDaysLeft ?? 0
  return (
    <div className="admin-page subscription-page">
      <PageHeader title={t`Subscription`}>
        <a className="button button-secondary" href="/financeiro">
          {t`Invoices`}
        </a>
      </PageHeader>
      {subscription ? (
        <section className="subscription-card" aria-label={t`Your subscription`}>
          <p className="subscription-trial">
            {subscription.trialExpiration && (days > 0 || !subscription.subscribed)
              ? plural(days, { 0: 'Your trial has ended.', one: 'You have # day left in your trial.', other: 'You have # days left in your trial.' })
              : subscription.subscribed
                ? t`You are subscribed.`
                : null}
          </p>
          <dl className="checkout-review">
            <div className="checkout-review-row">
              <dt>{t`Billing e-mail`}</dt>
              <dd>{subscription.email || '—'}</dd>
            </div>
            <div className="checkout-review-row">
              <dt>{t`Plan`}</dt>
              <dd>{subscription.plan ? `${subscription.plan.name} · ${formatMoney(subscription.periodValue, i18n.locale)}` : '—'}</dd>
            </div>
            <div className="checkout-review-row">
              <dt>{t`Due date`}</dt>
              <dd>{subscription.dueDate ? formatCalendarDate(subscription.dueDate) : '—'}</dd>
            </div>
          </dl>
          <Button onPress={() => setCheckout(true)}>{t`Sign now`}</Button>
        </section>
      ) : null}
      <CheckoutDialog invoice={checkout ? 'oldest' : null} paidUntil={paidUntil} onClose={() => setCheckout(false)} />
    </div>
  )
}
