// A connection's status (§4) as a labelled chip, and the session buttons each status offers:
// qrcode -> show the QR code; PAIRING -> show the pairing code, disconnect; DISCONNECTED -> try again,
// new QR code; CONNECTED, TIMEOUT -> disconnect; OPENING -> a disabled "connecting" button with a spinner.
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { Button } from '../../components/button.tsx'
import { PhoneIcon, QrCodeIcon, RefreshIcon } from '../../components/icons.tsx'
import type { Connection, ConnectionStatus } from './connection.ts'

const statusLabels: Record<ConnectionStatus, MessageDescriptor> = {
  qrcode: msg`Waiting for the QR code to be read`,
  PAIRING: msg`Pairing`,
  DISCONNECTED: msg`Disconnected`,
  TIMEOUT: msg`Connection lost`,
  OPENING: msg`Connecting`,
  CONNECTED: msg`Connected`,
}

const statusHints: Record<ConnectionStatus, MessageDescriptor> = {
  qrcode: msg`Open the QR code and read it with the phone's WhatsApp.`,
  PAIRING: msg`The phone is being linked.`,
  DISCONNECTED: msg`The session is not running. Try again, or ask for a new QR code.`,
  TIMEOUT: msg`The phone stopped answering. Check that it is online, or disconnect.`,
  OPENING: msg`Starting the session…`,
  CONNECTED: msg`Sending and receiving messages.`,
}

const tones: Record<ConnectionStatus, string> = {
  qrcode: 'warning',
  PAIRING: 'info',
  DISCONNECTED: 'danger',
  TIMEOUT: 'danger',
  OPENING: 'info',
  CONNECTED: 'success',
}

export function StatusChip({ status }: { status: ConnectionStatus }) {
  const { i18n } = useLingui()
  return (
    <span className={`connection-status connection-status-${tones[status]}`} title={i18n._(statusHints[status])} data-status={status}>
      <span className="connection-status-dot" aria-hidden="true" />
      {i18n._(statusLabels[status])}
    </span>
  )
}

/** showQr opens the QR modal, which shows the pairing code instead while the status is PAIRING. */
export type SessionAction = 'showQr' | 'retry' | 'newQr' | 'disconnect'

export function SessionActions({ connection, busy, onAction }: { connection: Connection; busy: boolean; onAction: (action: SessionAction) => void }) {
  const { t } = useLingui()
  const name = connection.name
  switch (connection.status) {
    case 'qrcode':
      return (
        <Button variant="secondary" onPress={() => onAction('showQr')} aria-label={t`Show the QR code of ${name}`}>
          <QrCodeIcon />
          {t`QR code`}
        </Button>
      )
    case 'DISCONNECTED':
      return (
        <span className="connection-session-buttons">
          <Button variant="secondary" onPress={() => onAction('retry')} isPending={busy} aria-label={t`Try again to connect ${name}`}>
            <RefreshIcon />
            {t`Try again`}
          </Button>
          <Button variant="secondary" onPress={() => onAction('newQr')} isPending={busy} aria-label={t`New QR code for ${name}`}>
            <QrCodeIcon />
            {t`New QR code`}
          </Button>
        </span>
      )
    case 'PAIRING':
      return (
        <span className="connection-session-buttons">
          <Button variant="secondary" onPress={() => onAction('showQr')} aria-label={t`Show the pairing code of ${name}`}>
            <PhoneIcon />
            {t`Pairing code`}
          </Button>
          <Button variant="secondary" onPress={() => onAction('disconnect')} isPending={busy} aria-label={t`Disconnect ${name}`}>
            {t`Disconnect`}
          </Button>
        </span>
      )
    case 'CONNECTED':
    case 'TIMEOUT':
      return (
        <Button variant="secondary" onPress={() => onAction('disconnect')} isPending={busy} aria-label={t`Disconnect ${name}`}>
          {t`Disconnect`}
        </Button>
      )
    case 'OPENING':
      return (
        <Button variant="secondary" isDisabled aria-label={t`Connecting ${name}`}>
          <span className="connection-spinner" aria-hidden="true" />
          {t`Connecting`}
        </Button>
      )
  }
}
