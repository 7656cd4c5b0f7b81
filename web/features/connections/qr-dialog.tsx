// The QR modal (§2, §4): the connection's QR code as the whatsappSession channel brings it (a new code
// replaces the old as WhatsApp rotates them), closing by itself once the phone is CONNECTED.
import { useLingui } from '@lingui/react/macro'
import { useEffect, useRef } from 'react'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { showToast } from '../../components/toasts.tsx'
import type { Connection } from './connection.ts'
import { preloadQrLibrary, QrCode } from './qr-code.tsx'

export type QrDialogProps = {
  /** The connection as the list holds it now (live); undefined once deleted. */
  connection: Connection | undefined
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
}

export function QrDialog({ connection, isOpen, onOpenChange }: QrDialogProps) {
  const { t } = useLingui()
  const close = useRef(onOpenChange)
  close.current = onOpenChange
  const status = connection?.status
  const name = connection?.name ?? ''

  useEffect(() => {
    if (isOpen) preloadQrLibrary()
  }, [isOpen])

  useEffect(() => {
    if (!isOpen) return
    if (status === 'CONNECTED') {
      showToast('success', t`${name} is connected.`)
      close.current(false)
    } else if (connection === undefined) {
      close.current(false)
    }
    // Only a change of status (or the row vanishing) decides; the toast text follows the language.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isOpen, status, connection === undefined])

  const qrcode = status === 'qrcode' && connection?.qrcode ? connection.qrcode : undefined
  return (
    <Dialog title={t`Read the QR code`} isOpen={isOpen} onOpenChange={onOpenChange}>
      <div className="connection-qr">
        <ol className="connection-qr-steps">
          <li>{t`Open WhatsApp on your phone.`}</li>
          <li>{t`Tap Menu or Settings and select Linked devices.`}</li>
          <li>{t`Tap Link a device and point your phone at this screen.`}</li>
        </ol>
        <div className="connection-qr-frame" aria-live="polite" data-status={status}>
          {qrcode ? (
            <QrCode value={qrcode} label={t`QR code of ${name}`} loadingText={t`Loading the QR code…`} />
          ) : status === 'DISCONNECTED' || status === 'TIMEOUT' ? (
            <p className="connection-qr-placeholder">{t`The session stopped. Close this window and press Try again or New QR code.`}</p>
          ) : status === 'PAIRING' ? (
            <p className="connection-qr-placeholder">{t`Pairing with the phone…`}</p>
          ) : (
            <p className="connection-qr-placeholder" role="status">
              <span className="connection-spinner" aria-hidden="true" />
              {t`Waiting for the QR code…`}
            </p>
          )}
        </div>
      </div>
      <div className="dialog-actions">
        <Button variant="secondary" onPress={() => onOpenChange(false)}>
          {t`Close`}
        </Button>
      </div>
    </Dialog>
  )
}
