// Request and response schemas of the ticket messages API (spec §3 Message, §7 messages).
import { t } from 'elysia'
import { mediaTypes } from '../../../db/schema/messages.ts'
import { positiveId } from '../../core/schemas.ts'
import { TicketView } from '../tickets/view.ts'

export const MediaTypeSchema = t.UnionEnum(mediaTypes)

export const QuotedMessage = t.Object({ id: t.Integer(), body: t.String(), fromMe: t.Boolean(), mediaType: MediaTypeSchema })

export const MessageView = t.Object({
  id: t.Integer(),
  ticketId: t.Integer(),
  contactId: t.Nullable(t.Integer()),
  whatsappId: t.Nullable(t.Integer()),
  /** The agent who sent it from the platform. */
  userId: t.Nullable(t.Integer()),
  body: t.String(),
  mediaType: MediaTypeSchema,
  /** A signed, expiring link to the media file (GET /public/...), or null without media. */
  mediaUrl: t.Nullable(t.String()),
  mediaName: t.Nullable(t.String()),
  fromMe: t.Boolean(),
  read: t.Boolean(),
  ack: t.Integer({ description: '0 not sent (see sendError), 1 sent, 2 server, 3 delivered, 4 read, 5 played' }),
  isDeleted: t.Boolean(),
  isEdited: t.Boolean(),
  /** Sender inside a group (digits). */
  participant: t.Nullable(t.String()),
  /** Why WhatsApp did not take the message; null once sent. */
  sendError: t.Nullable(t.String()),
  quotedMsgId: t.Nullable(t.Integer()),
  quotedMsg: t.Nullable(QuotedMessage),
  contact: t.Nullable(t.Object({ id: t.Integer(), name: t.String() })),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type MessageView = typeof MessageView.static

/** The contact as realtime carries it (channel contact and appMessage). */
export const ContactSummary = t.Object({
  id: t.Integer(),
  name: t.String(),
  number: t.String(),
  email: t.String(),
  profilePicUrl: t.String(),
  isGroup: t.Boolean(),
  whatsappId: t.Nullable(t.Integer()),
})
export type ContactSummary = typeof ContactSummary.static

// One path segment serves GET/POST /messages/{ticket id} and DELETE /messages/{message id}; it has
// one name, so that typed clients (Eden) see one parameter.
export const TicketIdParams = t.Object({ id: t.Integer({ minimum: 1, title: 'id', error: 'id must be a positive integer (the ticket id)', description: 'The ticket id' }) })
export const MessageIdParams = t.Object({ id: t.Integer({ minimum: 1, title: 'id', error: 'id must be a positive integer (the message id)', description: 'The message id' }) })

export const MessagePageQuery = t.Object({
  pageNumber: t.Optional(t.Integer({ minimum: 1, maximum: 100_000, title: 'pageNumber', error: 'pageNumber must be a positive integer' })),
  markRead: t.Optional(
    t.Boolean({ title: 'markRead', error: "markRead must be 'true' or 'false'", description: 'false: a read-only look (the admin peek); page 1 then leaves the ticket unread' }),
  ),
})

export const MessagePage = t.Object({
  messages: t.Array(MessageView, { description: 'One page, oldest first; page 1 holds the newest messages' }),
  ticket: TicketView,
  count: t.Integer({ description: 'All messages of the ticket' }),
  hasMore: t.Boolean({ description: 'Older messages remain (ask for pageNumber + 1)' }),
})

/** WhatsApp refuses longer texts. */
export const maxBodyLength = 65_536
export const maxFilesPerSend = 10

const quotedMsgSchema = t.Nullable(
  t.Union([positiveId('quotedMsg'), t.ObjectString({ id: positiveId('quotedMsg.id') }, { additionalProperties: true })], {
    error: 'quotedMsg must be a message id or a message object with its id',
  }),
)

/**
 * JSON `{body, quotedMsg, sign}` or multipart `medias` (files) with `body` as the caption of the first.
 * The spec's client also sends read, fromMe and mediaUrl: they are ignored.
 */
export const SendMessageBody = t.Object({
  body: t.Optional(t.String({ maxLength: maxBodyLength, error: `body must be text of at most ${maxBodyLength} characters` })),
  quotedMsg: t.Optional(quotedMsgSchema),
  sign: t.Optional(t.BooleanString({ error: 'sign must be true or false', description: "Prefix the agent's name in bold" })),
  medias: t.Optional(t.Files({ maxItems: maxFilesPerSend, error: `medias must be up to ${maxFilesPerSend} files` })),
})
export type SendMessageBody = typeof SendMessageBody.static

export const SentMessages = t.Object({ messages: t.Array(MessageView) })

/** The quoted message id out of either accepted shape. */
export function quotedIdOf(quotedMsg: SendMessageBody['quotedMsg']): number | undefined {
  if (quotedMsg === undefined || quotedMsg === null) return undefined
  return typeof quotedMsg === 'number' ? quotedMsg : quotedMsg.id
}
