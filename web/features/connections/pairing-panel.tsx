// The QR modal's other way in (§4 PAIRING): the phone's number, then the 8-character code WhatsApp
// gives for it, to type on that phone under WhatsApp > Linked devices > Link with phone number. The
// code comes from the whatsappSession channel like the QR code does, and is replaced as it changes.
import { useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { api } from '../../api/client.ts'
import { apiErrorOf } from '../../api/errors.ts'
import { Button } from '../../components/button.tsx'
import { TextField } from '../../components/text-field.tsx'
import { toSessionUpdate, type Connection, type SessionUpdate } from './connection.ts'
import { formatPairingCode, isPairingNumber, maskPairingNumber } from './pairing-number.ts'
import { showRequestError } from './request-error.ts'

export type PairingPanelProps = {
  connection: Connection
  /** The number was sent: what the dialog shows from now on depends on the session's status. */
  requested: boolean
  onRequested: (session: SessionUpdate) => void
  onUseQr: () => void
}

export function PairingPanel({ connection, requested, onRequested, onUseQr }: PairingPanelProps) {
  const { t } = useLingui()
  const { status, pairingCode } = connection
  return (
    <div className="connection-qr">
      <ol className="connection-qr-steps">
        <li>{t`Open WhatsApp on your phone.`}</li>
        <li>{t`Tap Menu or Settings and select Linked devices.`}</li>
        <li>{t`Tap Link a device, then Link with phone number instead.`}</li>
        <li>{t`Type the code shown here on the phone.`}</li>
      </ol>
      <div className="connection-pairing-frame" aria-live="polite" data-status={status}>
        {status === 'PAIRING' && pairingCode ? (
          <PairingCode code={pairingCode} />
        ) : requested && (status === 'DISCONNECTED' || status === 'TIMEOUT') ? (
          <p className="connection-qr-placeholder">{t`The session stopped. Close this window and press Try again or New QR code.`}</p>
        ) : requested || status === 'PAIRING' ? (
          <p className="connection-qr-placeholder" role="status">
            <span className="connection-spinner" aria-hidden="true" />
            {t`Waiting for the pairing code…`}
          </p>
        ) : (
          <PairingForm connection={connection} onRequested={onRequested} onUseQr={onUseQr} />
        )}
      </div>
    </div>
  )
}

function PairingCode({ code }: { code: string }) {
  const { t } = useLingui()
  const shown = formatPairingCode(code)
  return (
    <div className="connection-pairing-code-box">
      <p className="connection-pairing-code-label">{t`Pairing code`}</p>
      {/* Read out character by character: a screen reader would otherwise try to say it as a word. */}
      <p className="connection-pairing-code" data-testid="pairing-code" aria-label={shown.split('').join(' ')}>
        {shown}
      </p>
      <p className="connection-pairing-code-hint">{t`The code changes if it is not used in time: this window shows the current one.`}</p>
    </div>
  )
}

function PairingForm({ connection, onRequested, onUseQr }: { connection: Connection; onRequested: (session: SessionUpdate) => void; onUseQr: () => void }) {
  const { t, i18n } = useLingui()
  const [number, setNumber] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [sending, setSending] = useState(false)
  const rule = t`Enter the number with its country code: 10 to 15 digits.`

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    if (sending) return
    if (!isPairingNumber(number)) {
      setError(rule)
      return
    }
    setError(undefined)
    setSending(true)
    const { data, error: failure } = await api.whatsappsession({ id: connection.id })['pairing-code'].post({ number })
    setSending(false)
    if (failure) {
      if (apiErrorOf(failure).fields.some((field) => field.field === 'number')) setError(rule)
      else showRequestError(i18n, failure)
      return
    }
    onRequested(toSessionUpdate(data))
  }

  return (
    <form className="connection-pairing-form" onSubmit={(event) => void submit(event)} noValidate>
      <TextField
        label={t`Phone number`}
        description={t`With the country code, as in +55 (11) 98765-4321.`}
        value={number}
        onChange={(typed) => setNumber(maskPairingNumber(typed))}
        error={error}
        inputMode="tel"
        autoComplete="tel"
        placeholder="+55 (11) 98765-4321"
        autoFocus
      />
      <Button type="submit" isPending={sending}>
        {t`Get the pairing code`}
      </Button>
      <Button variant="ghost" className="connection-pairing-switch" onPress={onUseQr}>
        {t`Use the QR code instead`}
      </Button>
    </form>
  )
}
