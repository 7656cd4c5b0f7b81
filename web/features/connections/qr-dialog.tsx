// The QR modal (§2, §4): the connection's QR code as the whatsappSession channel brings it (a new code
// replaces the old as WhatsApp rotates them), closing by itself once the phone is CONNECTED. Instead of
// the QR code, an admin may link by phone number: the same modal then shows the pairing code (§4 PAIRING).
import '../../styles/connections-pairing.css'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import { Button } from '../../components/button.tsx'
import { Dialog } from '../../components/dialog.tsx'
import { PhoneIcon } from '../../components/icons.tsx'
import { showToast } from '../../components/toasts.tsx'
import type { Connection, SessionUpdate } from './connection.ts'
import { PairingPanel } from './pairing-panel.tsx'
import { preloadQrLibrary, QrCode } from './qr-code.tsx'

export type QrDialogProps = {
  /** The connection as the list holds it now (live); undefined once deleted. */
  connection: Connection | undefined
  isOpen: boolean
  onOpenChange: (isOpen: boolean) => void
  /** The session as a request answered it, for the list (the realtime update may come later). */
  onSessionUpdate: (session: SessionUpdate) => void
}

type Way = 'qr' | 'phone'

export function QrDialog({ connection, isOpen, onOpenChange, onSessionUpdate }: QrDialogProps) {
  const { t } = useLingui()
  const close = useRef(onOpenChange)
  close.current = onOpenChange
  const status = connection?.status
  const name = connection?.name ?? ''
  const [way, setWay] = useState<Way>('qr')
  // A number was sent in this opening of the modal.
  const [requested, setRequested] = useState(false)
  // WhatsApp gave no pairing code (the Baileys adapter then shows the QR code): say why the QR is back.
  const [fellBack, setFellBack] = useState(false)

  useEffect(() => {
    if (isOpen) preloadQrLibrary()
    else {
      setWay('qr')
      setRequested(false)
      setFellBack(false)
    }
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
  useEffect(() => {
    if (requested && qrcode) {
      setRequested(false)
      setWay('qr')
      setFellBack(true)
    }
  }, [requested, qrcode])

  // A connection waiting for its pairing code to be typed has no QR code to show: the code is the thing.
  const pairing = connection !== undefined && (way === 'phone' || status === 'PAIRING')
  return (
    <Dialog title={pairing ? t`Link with a phone number` : t`Read the QR code`} isOpen={isOpen} onOpenChange={onOpenChange}>
      {pairing ? (
        <PairingPanel
          connection={connection}
          requested={requested}
          onRequested={(session) => {
            onSessionUpdate(session)
            setRequested(true)
          }}
          onUseQr={() => setWay('qr')}
        />
      ) : (
        <>
          {fellBack ? <p className="connection-pairing-notice" role="alert">{t`WhatsApp did not give a pairing code for this number. Read the QR code instead.`}</p> : null}
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
              ) : (
                <p className="connection-qr-placeholder" role="status">
                  <span className="connection-spinner" aria-hidden="true" />
                  {t`Waiting for the QR code…`}
                </p>
              )}
            </div>
          </div>
          {connection ? (
            <Button variant="ghost" className="connection-pairing-switch" onPress={() => setWay('phone')}>
              <PhoneIcon />
              {t`Pair with a phone number instead`}
            </Button>
          ) : null}
        </>
      )}
      <div className="dialog-actions">
        <Button variant="secondary" onPress={() => onOpenChange(false)}>
          {t`Close`}
        </Button>
      </div>
    </Dialog>
  )
}
