// Pure translations between Baileys' payloads and the port's types (provider.ts). No socket, no I/O:
// media bytes are fetched later through the injected downloader.
import {
  BufferJSON,
  extractMessageContent,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isJidStatusBroadcast,
  isLidUser,
  isPnUser,
  jidDecode,
  jidEncode,
  jidNormalizedUser,
  proto,
  toNumber,
  WAMessageStubType,
  type Contact,
  type MessageUserReceiptUpdate,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys'
import type { MediaType } from '../../../db/schema/messages.ts'
import type { InboundMessage, MediaDownloadOptions } from '../provider.ts'
import { downloadBaileysMedia, type BaileysMediaDownloadContext } from './media-download.ts'

// ---------------------------------------------------------------------------------------------
// JIDs

/** Digits only: what the product stores as a phone number. */
export const onlyDigits = (value: string): string => value.replace(/\D/g, '')

/** The user part of a JID ("5511999990000@s.whatsapp.net" -> "5511999990000"), device dropped. */
export function jidUser(jid: string | null | undefined): string {
  if (!jid) return ''
  return jidDecode(jid)?.user ?? jid.split('@')[0]!.split(':')[0]!
}

/** A phone number (any formatting) as a user JID. A value that already is a JID passes through. */
export function phoneToJid(number: string): string {
  if (number.includes('@')) return jidNormalizedUser(number)
  return jidEncode(onlyDigits(number), 's.whatsapp.net')
}

/** A group id as the port carries it ("120363012345678901" or the old "5511999-1600000000"). */
export function groupToJid(groupId: string): string {
  return groupId.includes('@') ? groupId : jidEncode(groupId, 'g.us')
}

/** The chat JID of a port recipient. */
export function chatJid(to: string, isGroup?: boolean): string {
  if (to.includes('@')) return to
  return isGroup ? groupToJid(to) : phoneToJid(to)
}

/** A LID -> phone-number lookup; answers a PN JID or bare digits, or undefined when unknown. */
export type PhoneForLid = (lidJid: string) => string | undefined

/**
 * Phone digits of a person addressed by `jid`, using the alternate JID WhatsApp sent along (v7
 * `remoteJidAlt` / `participantAlt`) or the known LID mappings when the primary one is a LID.
 * Falls back to the LID's own digits when nothing maps it: losing the message would be worse,
 * and the `lid` field tells the caller the number is not a phone yet.
 */
export function resolvePerson(jid: string | null | undefined, alternate: string | null | undefined, phoneForLid?: PhoneForLid) {
  const primary = jid ? jidNormalizedUser(jid) : undefined
  const other = alternate ? jidNormalizedUser(alternate) : undefined
  const lid = isLidUser(primary) ? primary : isLidUser(other) ? other : undefined
  let phoneJid = isPnUser(primary) ? primary : isPnUser(other) ? other : undefined
  if (!phoneJid && lid) {
    const mapped = phoneForLid?.(lid)
    if (mapped) phoneJid = mapped.includes('@') ? jidNormalizedUser(mapped) : phoneToJid(mapped)
  }
  return { number: jidUser(phoneJid ?? primary ?? other), lid, resolved: Boolean(phoneJid) }
}

/** Whether the chat is one the product serves: people and groups, not status, channels or broadcast lists. */
export function isServedChat(jid: string | null | undefined): jid is string {
  if (!jid) return false
  if (isJidStatusBroadcast(jid) || isJidBroadcast(jid) || isJidNewsletter(jid)) return false
  return Boolean(isJidGroup(jid) || isPnUser(jid) || isLidUser(jid))
}

// ---------------------------------------------------------------------------------------------
// Messages

/** Fetches a media message's bytes (checked, decrypted, streamed: media-download.ts). */
export type MediaDownloader = (message: WAMessage, options: MediaDownloadOptions) => Promise<Uint8Array | AsyncIterable<Uint8Array>>

/**
 * The real downloader: only from the allowed hosts (WhatsApp's), never Baileys' downloadMediaMessage
 * (it fetches any URL the sender wrote); `reuploadRequest` lets the phone upload expired media again.
 */
export function createMediaDownloader(context: BaileysMediaDownloadContext): MediaDownloader {
  return (message, options) => downloadBaileysMedia(message, context, options)
}

export type MappingOptions = {
  download: MediaDownloader
  phoneForLid?: PhoneForLid
  /** The clock for messages that carry no timestamp. */
  now?: () => Date
}

/** What one Baileys message means to the product. */
export type MappedMessage =
  | { kind: 'message'; message: InboundMessage }
  | { kind: 'revoke'; id: string }
  | { kind: 'edit'; id: string; body: string }

type Content = proto.IMessage

/** Text of a message content, for edits and captions. */
export function textOf(content: Content | null | undefined): string {
  const inner = extractMessageContent(content)
  if (!inner) return ''
  return (
    inner.conversation ??
    inner.extendedTextMessage?.text ??
    inner.imageMessage?.caption ??
    inner.videoMessage?.caption ??
    inner.documentMessage?.caption ??
    ''
  )
}

/** The pipe-separated location body of the spec: "image|link|description" (description optional). */
export function locationBody(location: proto.Message.ILocationMessage | proto.Message.ILiveLocationMessage, describedAs: (string | null | undefined)[]): string {
  const image = location.jpegThumbnail?.length ? `data:image/jpeg;base64,${Buffer.from(location.jpegThumbnail).toString('base64')}` : ''
  const link = `https://maps.google.com/maps?q=${location.degreesLatitude ?? 0}%2C${location.degreesLongitude ?? 0}&z=17`
  // A pipe inside the description would shift the fields for whoever splits the body.
  const description = describedAs
    .filter((part): part is string => Boolean(part))
    .join(', ')
    .replaceAll('|', '/')
  return description ? `${image}|${link}|${description}` : `${image}|${link}`
}

type Body = { body: string; mediaType: MediaType; media?: { mimetype: string; fileName?: string }; context?: proto.IContextInfo | null }

/** Body, type and media descriptor of a content; undefined for contents the product does not show. */
function describeContent(content: Content): Body | undefined {
  if (typeof content.conversation === 'string') return { body: content.conversation, mediaType: 'chat' }
  const text = content.extendedTextMessage
  if (text) return { body: text.text ?? '', mediaType: 'chat', context: text.contextInfo }
  const image = content.imageMessage
  if (image) return { body: image.caption ?? '', mediaType: 'image', media: { mimetype: image.mimetype || 'image/jpeg' }, context: image.contextInfo }
  const video = content.videoMessage
  if (video) return { body: video.caption ?? '', mediaType: 'video', media: { mimetype: video.mimetype || 'video/mp4' }, context: video.contextInfo }
  const audio = content.audioMessage
  if (audio) return { body: '', mediaType: 'audio', media: { mimetype: audio.mimetype || 'audio/ogg; codecs=opus' }, context: audio.contextInfo }
  const document = content.documentMessage
  if (document) {
    const fileName = document.fileName ?? document.title ?? undefined
    return {
      body: document.caption || fileName || '',
      mediaType: 'application',
      media: { mimetype: document.mimetype || 'application/octet-stream', ...(fileName ? { fileName } : {}) },
      context: document.contextInfo,
    }
  }
  const sticker = content.stickerMessage
  if (sticker) return { body: '', mediaType: 'sticker', media: { mimetype: sticker.mimetype || 'image/webp' }, context: sticker.contextInfo }
  const location = content.locationMessage
  if (location) return { body: locationBody(location, [location.name, location.address]), mediaType: 'locationMessage', context: location.contextInfo }
  const live = content.liveLocationMessage
  if (live) return { body: locationBody(live, [live.caption]), mediaType: 'locationMessage', context: live.contextInfo }
  const contact = content.contactMessage
  if (contact) return { body: contact.vcard ?? '', mediaType: 'vcard', context: contact.contextInfo }
  const contacts = content.contactsArrayMessage
  if (contacts) {
    const cards = (contacts.contacts ?? []).map((card) => card.vcard ?? '').filter(Boolean)
    return { body: cards.join('\n'), mediaType: 'vcard', context: contacts.contextInfo }
  }
  // Menu answers: the chatbot matches on the text the customer picked.
  const button = content.buttonsResponseMessage
  if (button) return { body: button.selectedDisplayText ?? button.selectedButtonId ?? '', mediaType: 'chat', context: button.contextInfo }
  const list = content.listResponseMessage
  if (list) return { body: list.title ?? list.singleSelectReply?.selectedRowId ?? '', mediaType: 'chat', context: list.contextInfo }
  const template = content.templateButtonReplyMessage
  if (template) return { body: template.selectedDisplayText ?? template.selectedId ?? '', mediaType: 'chat', context: template.contextInfo }
  return undefined
}

/**
 * Maps a Baileys message. Revokes and edits come back as updates; status broadcasts, channels,
 * reactions, protocol chatter and message kinds the product does not show come back undefined.
 */
export function mapWAMessage(raw: WAMessage, options: MappingOptions): MappedMessage | undefined {
  const key: WAMessageKey = raw.key
  const remoteJid = key.remoteJid
  if (!key.id || !isServedChat(remoteJid)) return undefined
  const content = extractMessageContent(raw.message)
  if (!content) return undefined

  const protocol = content.protocolMessage
  if (protocol) {
    const target = protocol.key?.id
    if (!target) return undefined
    if (protocol.type === proto.Message.ProtocolMessage.Type.REVOKE) return { kind: 'revoke', id: target }
    if (protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT && protocol.editedMessage) {
      return { kind: 'edit', id: target, body: textOf(protocol.editedMessage) }
    }
    return undefined
  }
  if (content.reactionMessage) return undefined

  const described = describeContent(content)
  if (!described) return undefined

  const isGroup = Boolean(isJidGroup(remoteJid))
  const sender = isGroup ? resolvePerson(key.participant ?? raw.participant, key.participantAlt, options.phoneForLid) : undefined
  const chat = isGroup ? undefined : resolvePerson(remoteJid, key.remoteJidAlt, options.phoneForLid)
  const lid = isGroup ? sender?.lid : chat?.lid
  const seconds = toNumber(raw.messageTimestamp)
  const media = described.media
  const message: InboundMessage = {
    id: key.id,
    from: isGroup ? jidUser(remoteJid) : chat!.number,
    fromMe: Boolean(key.fromMe),
    isGroup,
    timestamp: seconds ? new Date(seconds * 1000) : (options.now?.() ?? new Date()),
    body: described.body,
    mediaType: described.mediaType,
    raw,
  }
  if (raw.pushName) message.pushName = raw.pushName
  if (sender?.number) message.participant = sender.number
  if (lid) message.lid = lid
  if (described.context?.stanzaId) message.quotedId = described.context.stanzaId
  if (media) message.media = { ...media, download: (downloadOptions) => options.download(raw, downloadOptions) }
  return { kind: 'message', message }
}

/** Only the new messages (InboundMessage); revokes, edits and ignored ones give undefined. */
export function toInboundMessage(raw: WAMessage, options: MappingOptions): InboundMessage | undefined {
  const mapped = mapWAMessage(raw, options)
  return mapped?.kind === 'message' ? mapped.message : undefined
}

// ---------------------------------------------------------------------------------------------
// Updates: acks, revokes, edits

/** The port's ack from Baileys' WAMessageStatus (ERROR 0, PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5). */
export function ackFromStatus(status: number | null | undefined): number | undefined {
  if (typeof status !== 'number' || !Number.isInteger(status)) return undefined
  return Math.min(Math.max(status, proto.WebMessageInfo.Status.ERROR), proto.WebMessageInfo.Status.PLAYED)
}

/** A group member's receipt: played beats read beats delivered. */
export function ackFromReceipt(receipt: proto.IUserReceipt): number | undefined {
  if (toNumber(receipt.playedTimestamp)) return proto.WebMessageInfo.Status.PLAYED
  if (toNumber(receipt.readTimestamp)) return proto.WebMessageInfo.Status.READ
  if (toNumber(receipt.receiptTimestamp)) return proto.WebMessageInfo.Status.DELIVERY_ACK
  return undefined
}

export type MessageChange = { kind: 'ack'; id: string; ack: number } | { kind: 'revoke'; id: string } | { kind: 'edit'; id: string; body: string }

/** What a `messages.update` entry says: an ack, a revoke or an edit (or several). */
export function mapMessageUpdate(entry: WAMessageUpdate): MessageChange[] {
  const id = entry.key.id
  if (!id) return []
  const { update } = entry
  const changes: MessageChange[] = []
  const ack = ackFromStatus(update.status)
  if (ack !== undefined) changes.push({ kind: 'ack', id, ack })
  if (update.messageStubType === WAMessageStubType.REVOKE || update.message?.protocolMessage?.type === proto.Message.ProtocolMessage.Type.REVOKE) {
    changes.push({ kind: 'revoke', id })
  }
  const edited = update.message?.editedMessage?.message
  if (edited) {
    // Baileys sends the new content directly; older payloads wrap it in a MESSAGE_EDIT protocol message.
    const content = edited.protocolMessage?.editedMessage ?? edited
    changes.push({ kind: 'edit', id, body: textOf(content) })
  }
  return changes
}

/** A `message-receipt.update` entry (groups) as an ack. */
export function mapReceiptUpdate(entry: MessageUserReceiptUpdate): { id: string; ack: number } | undefined {
  const ack = ackFromReceipt(entry.receipt)
  return entry.key.id && ack !== undefined ? { id: entry.key.id, ack } : undefined
}

// ---------------------------------------------------------------------------------------------
// Stored raw messages (what InboundMessage.raw / SendResult.raw carried, as the caller kept it)

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The caller may keep the raw message as the object itself or as JSON (BufferJSON or protobuf JSON). */
function revive(stored: unknown): unknown {
  if (typeof stored !== 'string') return stored
  try {
    return JSON.parse(stored, BufferJSON.reviver)
  } catch {
    return undefined
  }
}

/** A stored raw message back as a Baileys message (for quoting); undefined when it is not one. */
export function storedWAMessage(stored: unknown): WAMessage | undefined {
  const value = revive(stored)
  if (!isRecord(value) || !isRecord(value.key) || !isRecord(value.message)) return undefined
  // fromObject turns base64 strings and Buffers back into bytes that protobuf can encode.
  const key = value.key as WAMessageKey
  return { ...value, key, message: proto.Message.fromObject(value.message) }
}

/**
 * The media of a stored raw message, as mapWAMessage built it when the message arrived: the same
 * downloader (allowed hosts only, decrypted as a stream). Undefined when the stored value is no Baileys
 * media message.
 */
export function storedMessageMedia(stored: unknown, download: MediaDownloader): InboundMessage['media'] {
  const message = storedWAMessage(stored)
  if (!message) return undefined
  const mapped = mapWAMessage(message, { download })
  return mapped?.kind === 'message' ? mapped.message.media : undefined
}

/** The content of a stored raw message (a whole message or just its content), for Baileys' getMessage. */
export function storedMessageContent(stored: unknown): proto.IMessage | undefined {
  const value = revive(stored)
  if (!isRecord(value)) return undefined
  if ('key' in value) return isRecord(value.message) ? proto.Message.fromObject(value.message) : undefined
  return proto.Message.fromObject(value)
}

// ---------------------------------------------------------------------------------------------
// Contacts and calls

/** A contact's phone digits, name and LID; undefined for groups, channels and unmappable LIDs. */
export function mapContact(contact: Partial<Contact>, phoneForLid?: PhoneForLid): { number: string; name?: string; lid?: string } | undefined {
  const id = contact.id
  if (!id || !(isPnUser(id) || isLidUser(id))) return undefined
  const alternate = isLidUser(id) ? contact.phoneNumber : contact.lid
  const person = resolvePerson(id, alternate, phoneForLid)
  if (!person.resolved) return undefined
  const mapped: { number: string; name?: string; lid?: string } = { number: person.number }
  const name = contact.name || contact.notify || contact.verifiedName
  if (name) mapped.name = name
  if (person.lid) mapped.lid = person.lid
  return mapped
}

/** An incoming call offer; other call states and offers caught up while offline are not calls to answer. */
export function mapCall(call: WACallEvent, phoneForLid?: PhoneForLid): { id: string; from: string; timestamp: Date } | undefined {
  if (call.status !== 'offer' || call.offline) return undefined
  const caller = resolvePerson(call.from, call.callerPn, phoneForLid)
  return { id: call.id, from: caller.number, timestamp: call.date instanceof Date ? call.date : new Date(call.date) }
}

/** A LID -> PN pair from `lid-mapping.update` or history sync, normalized. */
export function normalizeLidMapping(mapping: { lid: string; pn: string }): { lid: string; pn: string } | undefined {
  const lid = jidNormalizedUser(mapping.lid)
  const pn = jidNormalizedUser(mapping.pn)
  return isLidUser(lid) && isPnUser(pn) ? { lid, pn } : undefined
}
