// The type column's badge (§2 "Queue integration": type logo): a small drawing of our own per type,
// not the vendors' trademarks: a speech bubble (Dialogflow), linked nodes (n8n), a hook (webhook) and
// a robot head (typebot), each on its own colour, named for assistive technology.
import type { IntegrationType } from '../../../src/modules/queue-integrations/model.ts'

export const integrationTypeLabels: Record<IntegrationType, string> = {
  dialogflow: 'Dialogflow',
  n8n: 'n8n',
  webhook: 'Webhook',
  typebot: 'Typebot',
}

function Glyph({ type }: { type: IntegrationType }) {
  const stroke = { fill: 'none', stroke: '#fff', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const
  switch (type) {
    case 'dialogflow':
      return (
        <>
          <path {...stroke} d="M8 9h12a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2h-6l-4 3v-3H8a2 2 0 0 1-2-2v-6a2 2 0 0 1 2-2z" />
          <circle cx="11" cy="14" r="1.2" fill="#fff" />
          <circle cx="14" cy="14" r="1.2" fill="#fff" />
          <circle cx="17" cy="14" r="1.2" fill="#fff" />
        </>
      )
    case 'n8n':
      return (
        <>
          <path {...stroke} d="M9.5 14h4.5m0 0 3.5-4m-3.5 4 3.5 4" />
          <circle {...stroke} cx="7.5" cy="14" r="2" />
          <circle {...stroke} cx="19.5" cy="9" r="2" />
          <circle {...stroke} cx="19.5" cy="19" r="2" />
        </>
      )
    case 'webhook':
      return (
        <>
          <path {...stroke} d="M14 6v9a4 4 0 1 1-8 0" />
          <path {...stroke} d="M11 9l3-3 3 3" />
          <circle cx="20" cy="19" r="2" fill="#fff" />
        </>
      )
    case 'typebot':
      return (
        <>
          <rect {...stroke} x="7" y="10" width="14" height="10" rx="3" />
          <path {...stroke} d="M14 10V7" />
          <circle cx="14" cy="6" r="1.4" fill="#fff" />
          <circle cx="11" cy="15" r="1.4" fill="#fff" />
          <circle cx="17" cy="15" r="1.4" fill="#fff" />
        </>
      )
  }
}

export function IntegrationLogo({ type }: { type: IntegrationType }) {
  return (
    <svg className={`integration-logo integration-logo-${type}`} viewBox="0 0 28 28" width="28" height="28" role="img" aria-label={integrationTypeLabels[type]}>
      <rect width="28" height="28" rx="7" className="integration-logo-tile" />
      <Glyph type={type} />
    </svg>
  )
}
