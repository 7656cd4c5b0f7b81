// Whether an item's number is on WhatsApp (§2 "a WhatsApp-valid icon"): an icon with a text for
// assistive technology and a tooltip, so that colour is never the only sign.
import { useLingui } from '@lingui/react/macro'
import { AlertIcon, CheckIcon, RefreshIcon } from '../../components/icons.tsx'
import { validityOf, type ContactListItemRow } from './rows.ts'

export function ValidityBadge({ item }: { item: Pick<ContactListItemRow, 'isWhatsappValid' | 'whatsappCheckedAt'> }) {
  const { t } = useLingui()
  const validity = validityOf(item)
  const label = validity === 'valid' ? t`On WhatsApp` : validity === 'invalid' ? t`Not on WhatsApp` : t`Checking with WhatsApp…`
  const Icon = validity === 'valid' ? CheckIcon : validity === 'invalid' ? AlertIcon : RefreshIcon
  return (
    <span className={`validity-badge validity-${validity}`} role="img" aria-label={label} title={label} data-validity={validity}>
      <Icon />
    </span>
  )
}
