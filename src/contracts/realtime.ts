// The realtime channels (spec §7 "Realtime") and what their frames carry, for the server that
// publishes them and the web app that listens. A frame on the wire is {channel: 'company-<id>-<name>',
// data}; `name` is one of realtimeChannels and `data` is ChannelFrames[name] as JSON.
// A shared contract: the web bundle imports these values, so this file imports nothing but types
// (the modules' model types vanish from the bundle).
import type { Announcement } from '../modules/announcements/model.ts'
import type { Chat, ChatMessage } from '../modules/chats/model.ts'
import type { Campaign } from '../modules/campaigns/model.ts'
import type { Company, ScheduleEntry } from '../modules/companies/model.ts'
import type { ContactList, ContactListItem } from '../modules/contact-lists/model.ts'
import type { FileList } from '../modules/file-lists/model.ts'
import type { Help } from '../modules/helps/model.ts'
import type { ContactSummary, MessageView } from '../modules/messages/model.ts'
import type { Plan } from '../modules/plans/model.ts'
import type { Prompt } from '../modules/prompts/model.ts'
import type { QueueIntegration } from '../modules/queue-integrations/model.ts'
import type { Queue } from '../modules/queues/model.ts'
import type { QuickMessage } from '../modules/quick-messages/model.ts'
import type { Schedule } from '../modules/schedules/model.ts'
import type { Setting } from '../modules/settings/model.ts'
import type { Tag } from '../modules/tags/model.ts'
import type { TicketView } from '../modules/tickets/view.ts'
import type { PublicUser } from '../modules/users/model.ts'
import type { Whatsapp, WhatsappSession } from '../modules/whatsapp/model.ts'

/** The two service-level targets of a queue: first response and resolution. */
export type SlaTargetName = 'firstResponse' | 'resolution'

/** Every channel suffix the server publishes on ('company-<id>-' + suffix). */
export const realtimeChannels = [
  'ticket',
  'appMessage',
  'contact',
  'whatsapp',
  'whatsappSession',
  'user',
  'auth',
  'queue',
  'tag',
  'quickemessage',
  'schedule',
  'campaign',
  'settings',
  'prompt',
  'queueIntegration',
  'companies',
  'plans',
  'helps',
  'announcement',
  'chat',
  'ContactList',
  'ContactListItem',
  'file',
  'payment',
  'slaAlert',
  'resync',
] as const

/** A user's own chat channel (§7: 'a per-user chat'): `company-<id>-chat-user-<userId>`. */
export type ChatUserChannel = `chat-user-${number}`

/** The per-list channel of a contact list's items (§7 Realtime: "plus one per list"). */
export type ContactListItemsChannel = `ContactListItem-${number}`

export function contactListItemsChannel(contactListId: number): ContactListItemsChannel {
  return `ContactListItem-${contactListId}`
}

export type RealtimeChannel = (typeof realtimeChannels)[number] | ChatUserChannel | ContactListItemsChannel

/** Channels the spec names whole, one name for every company: sent without the `company-<id>-` prefix. */
export const unprefixedRealtimeChannels = ['company-announcement'] as const
export type UnprefixedRealtimeChannel = (typeof unprefixedRealtimeChannels)[number]

/** What happened to a queue's option tree, riding on the queue's `update` frame (see queue-options). */
export type QueueOptionsChange = { action: 'create' | 'update' | 'delete'; optionIds: number[] }

/** Upserts carry the record, deletes its id: the shape of most admin list channels. */
type Crud<Key extends string, Row, IdKey extends string> =
  | ({ action: 'create' | 'update' } & { [K in Key]: Row })
  | ({ action: 'delete' } & { [K in IdKey]: number })

/** The data of each channel's frames, as the server builds it (dates as Date; see ChannelFrame for the wire). */
export type ChannelFrames = {
  /** Only to those who may see the ticket; `delete` also to an agent the ticket just left. */
  ticket:
    /** slaBreach: the ticket just went past that service-level target (issue 13). */
    | { action: 'update'; ticket: TicketView; slaBreach?: SlaTargetName }
    | { action: 'updateUnread'; ticketId: number; ticket: TicketView }
    | { action: 'delete'; ticketId: number }
  /** To the sockets of the ticket's chat room and of the notification list. */
  appMessage: { action: 'create' | 'update'; message: MessageView; ticket: TicketView; contact: ContactSummary | null }
  contact: Crud<'contact', ContactSummary, 'contactId'>
  /** Without QR code nor token: the whole company hears it. */
  whatsapp: { action: 'update'; whatsapp: Whatsapp } | { action: 'delete'; whatsappId: number }
  /** With the QR code: admins only. */
  whatsappSession: { action: 'update'; session: WhatsappSession }
  user: Crud<'user', PublicUser, 'userId'>
  /** The account was opened elsewhere (or its password changed): the tab signs out. */
  auth: { action: 'logout'; user: { id: number } }
  queue: { action: 'update'; queue: Queue; options?: QueueOptionsChange } | { action: 'delete'; queueId: number }
  tag: Crud<'tag', Tag, 'tagId'>
  /** Shared ones to the company, personal ones to their owner. */
  quickemessage: Crud<'record', QuickMessage, 'id'>
  schedule: Crud<'schedule', Schedule, 'scheduleId'>
  /** The list's changes to the company, report progress ticks, and (admins only) a restricted connection. */
  campaign:
    | Crud<'record', Campaign, 'id'>
    | { action: 'progress'; campaignId: number }
    | { action: 'connectionPaused'; whatsappId: number; reason: string; until: Date | null }
  settings: { action: 'update'; setting: Setting } | { action: 'schedules'; schedules: ScheduleEntry[] }
  prompt: Crud<'prompt', Prompt, 'promptId'>
  queueIntegration: Crud<'queueIntegration', QueueIntegration, 'integrationId'>
  /** Platform lists: companies and plans to super users, helps to everyone. */
  companies: Crud<'company', Company, 'companyId'>
  plans: Crud<'plan', Plan, 'planId'>
  helps: Crud<'help', Help, 'helpId'>
  /** The super users' announcements page: every change, inactive ones included. */
  announcement: Crud<'record', Announcement, 'id'>
  /** To a chat's members only. */
  chat: { action: 'new-message'; newMessage: ChatMessage; chat: Chat } | { action: 'update'; chat: Chat } | { action: 'delete'; id: number }
  /** A chat the user is in was created or edited. */
  [userChannel: ChatUserChannel]: { action: 'create' | 'update'; record: Chat }
  /** Contact lists, to admins: upserts carry the list with its counts. */
  ContactList: Crud<'record', ContactList, 'id'>
  /** Items changed one by one (a delete names its list too). */
  ContactListItem: ({ action: 'create' | 'update'; record: ContactListItem }) | { action: 'delete'; id: number; contactListId: number }
  /** File lists (§7 Files), to the company (the chat input offers them). */
  file: Crud<'files', FileList, 'fileId'>
  /** An invoice was paid and the company renewed (§7 payment: action CONCLUIDA with the company's new due date). */
  payment: { action: 'CONCLUIDA'; company: { id: number; dueDate: string }; invoiceId: number }
  /** A ticket went past a service-level target: to admins and supervisors, once per ticket and target. */
  slaAlert: { action: 'breach'; target: SlaTargetName; dueAt: Date; ticket: { id: number; uuid: string; contactName: string; queueName: string | null } }
  /**
   * Reload what is shown: frames were lost (the client is too far behind, Redis was out, a failed
   * instance's were never sent), or what every ticket shows changed at once (a queue's service-level
   * targets or hours: each live ticket has new deadlines, which one frame per ticket would flood).
   */
  resync: { reason: 'behind' | 'outage' | 'failover' | 'serviceLevels' }
} & {
  /** One list's items: reload after a bulk add; WhatsApp's answers for a batch of its items. */
  [Channel in ContactListItemsChannel]: { action: 'reload' } | { action: 'update'; records: ContactListItem[] }
}

/** The data of the unprefixed channels: the active announcements everyone sees (an inactive one as a delete). */
export type UnprefixedChannelFrames = {
  'company-announcement': Crud<'record', Announcement, 'id'>
}

/** A value as JSON carries it: dates become ISO strings, the rest keeps its shape. */
export type Wire<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? Wire<Item>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T

/** A channel's frame data as the client receives it. */
export type ChannelFrame<Channel extends RealtimeChannel> = Wire<ChannelFrames[Channel]>

/** An unprefixed channel's frame data as the client receives it. */
export type UnprefixedChannelFrame<Channel extends UnprefixedRealtimeChannel> = Wire<UnprefixedChannelFrames[Channel]>
