// The alert to admins that WhatsApp restricted a connection (issue 12 item 5): that connection's
// campaign sends are paused until the restriction ends. The frame comes on the `campaign` channel to
// admins only; this listens on every page (it sits in the top bar) and shows a warning that leads to
// the campaigns.
import { useLingui } from '@lingui/react/macro'
import { showToast } from '../../components/toasts.tsx'
import { useChannel } from '../../hooks/use-channel.ts'
import { formatDateTime } from './campaign-time.ts'

export function CampaignAlerts() {
  const { t } = useLingui()
  useChannel('campaign', (frame) => {
    if (frame.action !== 'connectionPaused') return
    const connection = frame.whatsappId
    const until = frame.until ? formatDateTime(frame.until) : null
    const text = until
      ? t`WhatsApp restricted connection #${connection}: its campaign sends are paused until ${until}.`
      : t`WhatsApp restricted connection #${connection}: its campaign sends are paused until the restriction ends.`
    showToast('warning', text, { href: '/campaigns', label: t`Campaigns` })
  })
  return null
}
