// The Pix screen (§2 Checkout): the QR code to scan, the copy-and-paste code with its copy button,
// the amount, and how long the code stays valid. The payment is confirmed by the provider's webhook;
// the page hears it on the `payment` channel (use-payment-confirmation.ts).
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { Button } from '../../components/button.tsx'
import { showToast } from '../../components/toasts.tsx'
import { formatMoney } from '../../i18n/format.ts'
import { QrCode } from '../connections/qr-code.tsx'
import type { CheckoutAnswer } from './billing-types.ts'
import { formatCountdown, secondsLeft } from './checkout-rules.ts'

export function PixPanel({ pix, paidUntil }: { pix: CheckoutAnswer; paidUntil: string | null }) {
  const { t, i18n } = useLingui()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  const code = pix.qrcode?.qrcode ?? ''
  const left = secondsLeft(pix.expiresAt, now)
  const amount = formatMoney(Number(pix.valor.original), i18n.locale)

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code)
      showToast('success', t`Pix code copied.`)
    } catch {
      showToast('error', t`Could not copy. Select the code and copy it yourself.`)
    }
  }

  return (
    <section className="pix-panel" aria-label={t`Pay with Pix`}>
      <p className="pix-amount">
        {t`Amount`}: <strong>{amount}</strong>
      </p>
      <div className="pix-qr">
        <QrCode value={code} label={t`Pix QR code`} loadingText={t`Loading…`} />
      </div>
      <label className="field-label" htmlFor="pix-copy-paste">
        {t`Pix copy and paste`}
      </label>
      <div className="pix-code">
        <input id="pix-copy-paste" className="field-input" readOnly value={code} onFocus={(event) => event.currentTarget.select()} />
        <Button variant="secondary" onPress={copy}>
          {t`Copy`}
        </Button>
      </div>
      {paidUntil ? (
        <p className="pix-status pix-status-paid" role="status">
          {t`Payment received.`}
        </p>
      ) : (
        <p className="pix-status" role="status" aria-live="off">
          {left > 0 ? t`Waiting for the payment. The code expires in ${formatCountdown(left)}.` : t`This code has expired. Close and start again for a new one.`}
        </p>
      )}
    </section>
  )
}
