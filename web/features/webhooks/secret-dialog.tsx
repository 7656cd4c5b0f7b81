// The signing secret, shown once (after creating a webhook or rotating its secret): the server keeps
// it sealed and never returns it again. With how to verify a delivery's signature.
import { useLingui } from '@lingui/react/macro'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'

export type SecretDialogProps = { secret: string | null; onClose: () => void }

export function SecretDialog({ secret, onClose }: SecretDialogProps) {
  const { t } = useLingui()
  return (
    <Dialog title={t`Signing secret`} isOpen={secret !== null} onOpenChange={(isOpen) => !isOpen && onClose()}>
      <p>{t`Copy this secret now: it will not be shown again.`}</p>
      <pre className="webhook-secret" aria-label={t`Signing secret`}>
        {secret}
      </pre>
      <p className="muted-note">
        {t`Every delivery carries the header X-Zapdesk-Signature: t=<timestamp>,v1=<signature>. The signature is the HMAC-SHA256, in hex, of "<timestamp>.<body>" with this secret. Refuse deliveries whose signature differs or whose timestamp is older than five minutes; X-Zapdesk-Delivery is the same in every retry, so you can ignore repeats.`}
      </p>
      <div className="dialog-actions">
        <Button onPress={onClose}>{t`Done`}</Button>
      </div>
    </Dialog>
  )
}
