// Every module's listeners of domain events, subscribed once per app. A new module that reacts to
// events (its realtime.ts, a job trigger, a webhook) adds its listen function here.
import type { Deps } from './deps.ts'
import { listenAnnouncementRealtime } from './announcements/realtime.ts'
import { listenChatRealtime } from './chats/realtime.ts'
import { listenAuthRealtime, listenTwoFactorLog } from './auth/realtime.ts'
import { listenAuditLog } from './audit/listener.ts'
import { listenBillingRealtime } from './billing/realtime.ts'
import { listenCampaignRealtime, listenCampaignReplies } from './campaigns/service.ts'
import { listenContactRealtime } from './contacts/realtime.ts'
import { listenContactListRealtime } from './contact-lists/realtime.ts'
import { listenFileListRealtime } from './file-lists/realtime.ts'
import { listenMessageMediaErasure } from './messages/media-erasure.ts'
import { listenMessageRealtime } from './messages/realtime.ts'
import { listenTicketRealtime } from './tickets/realtime.ts'
import { listenUserRealtime } from './users/realtime.ts'
import { listenCompanyRealtime } from './companies/realtime.ts'
import { listenHelpRealtime } from './helps/realtime.ts'
import { listenPlanRealtime } from './plans/realtime.ts'
import { listenPromptRealtime } from './prompts/realtime.ts'
import { listenQueueIntegrationRealtime } from './queue-integrations/realtime.ts'
import { listenQueueOptionRealtime } from './queue-options/realtime.ts'
import { listenQueueRealtime } from './queues/realtime.ts'
import { listenQuickMessageRealtime } from './quick-messages/realtime.ts'
import { listenScheduleRealtime } from './schedules/realtime.ts'
import { listenScheduleReplies } from './schedules/reply-listener.ts'
import { listenSettingRealtime } from './settings/realtime.ts'
import { listenTagRealtime } from './tags/realtime.ts'
import { listenWhatsappRealtime } from './whatsapp/realtime.ts'
import { listenWhatsappSessionRealtime } from './whatsapp/session-realtime.ts'
import { listenWebhookOutbox } from './webhooks/service.ts'

export function listenDomainEvents(deps: Deps): () => void {
  const stops = [
    listenAuthRealtime(deps),
    listenTwoFactorLog(deps),
    listenAuditLog(deps),
    listenUserRealtime(deps),
    listenCompanyRealtime(deps),
    listenBillingRealtime(deps),
    listenPlanRealtime(deps),
    listenHelpRealtime(deps),
    listenSettingRealtime(deps),
    listenWhatsappRealtime(deps),
    listenWhatsappSessionRealtime(deps),
    listenQueueRealtime(deps),
    listenQueueOptionRealtime(deps),
    listenQueueIntegrationRealtime(deps),
    listenPromptRealtime(deps),
    listenTagRealtime(deps),
    listenQuickMessageRealtime(deps),
    listenScheduleRealtime(deps),
    listenScheduleReplies(deps),
    listenCampaignRealtime(deps),
    listenCampaignReplies(deps),
    listenTicketRealtime(deps),
    listenMessageRealtime(deps),
    listenMessageMediaErasure(deps),
    listenContactRealtime(deps),
    listenChatRealtime(deps),
    listenAnnouncementRealtime(deps),
    listenContactListRealtime(deps),
    listenFileListRealtime(deps),
    // After the realtime listeners: the webhooks' outbox rows (an awaited write) do not hold frames back.
    listenWebhookOutbox(deps),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}
