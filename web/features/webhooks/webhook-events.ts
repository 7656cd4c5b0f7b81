// The webhook events' names as the page shows them. The server's list (GET /api/webhooks `events`) is
// the truth: an event added there later (campaigns) shows with its raw name until it gets a label here.
import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

const eventLabels: Record<string, MessageDescriptor> = {
  'message.created': msg`Message received or sent`,
  'message.updated': msg`Message updated (ack, edit, deletion)`,
  'ticket.created': msg`Ticket created`,
  'ticket.status_changed': msg`Ticket status changed`,
  'ticket.assigned': msg`Ticket assigned`,
  'contact.created': msg`Contact created`,
  'contact.updated': msg`Contact updated`,
}

export function webhookEventLabel(i18n: I18n, event: string): string {
  const label = eventLabels[event]
  return label ? i18n._(label) : event
}
