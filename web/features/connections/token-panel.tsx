// The connection's token for the external message API (POST /api/messages/send): masked until asked
// for, copied on demand, and replaced after a confirmation (the old one stops working at once).
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { api } from '../../api/client.ts'
import { Button } from '../../components/button.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { EyeIcon, EyeOffIcon, KeyIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import { showRequestError } from './request-error.ts'

const MASK = '•'.repeat(24)

export function TokenPanel({ connectionId, token, onTokenChange }: { connectionId: number; token: string | undefined; onTokenChange: (token: string) => void }) {
  const { t, i18n } = useLingui()
  const [shown, setShown] = useState(false)
  const [confirming, setConfirming] = useState(false)

  const copy = async () => {
    if (!token) return
    try {
      await navigator.clipboard.writeText(token)
      showToast('success', t`Token copied.`)
    } catch {
      showToast('error', t`Could not copy the token. Show it and copy it by hand.`)
    }
  }

  const regenerate = async () => {
    const { data, error } = await api.whatsapp({ id: connectionId }).token.post()
    if (error) {
      showRequestError(i18n, error)
      return false
    }
    onTokenChange(data.token)
    setShown(true)
    showToast('success', t`New token generated. The previous one no longer works.`)
    return true
  }

  return (
    <section className="connection-token" aria-labelledby="connection-token-title">
      <h3 id="connection-token-title" className="connection-section-title">
        {t`External API token`}
      </h3>
      <p className="field-description">{t`Send messages through this connection with POST /api/messages/send and this token as Bearer.`}</p>
      <div className="connection-token-row">
        <code className="connection-token-value" aria-label={t`Token`} data-testid="connection-token">
          {token ? (shown ? token : MASK) : t`No token`}
        </code>
        <Button variant="ghost" icon onPress={() => setShown(!shown)} aria-label={shown ? t`Hide token` : t`Show token`} isDisabled={!token}>
          {shown ? <EyeOffIcon /> : <EyeIcon />}
        </Button>
        <Button variant="secondary" onPress={() => void copy()} isDisabled={!token}>
          {t`Copy`}
        </Button>
        <Button variant="secondary" onPress={() => setConfirming(true)}>
          <KeyIcon />
          {t`Generate new token`}
        </Button>
      </div>
      <ConfirmDialog title={t`Generate a new token?`} isOpen={confirming} onOpenChange={setConfirming} onConfirm={regenerate} confirmLabel={t`Generate`}>
        {t`The current token stops working at once: whatever uses it must be given the new one.`}
      </ConfirmDialog>
    </section>
  )
}
