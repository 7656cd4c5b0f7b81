// What the platform sends through a connection's socket: texts and media (quoting the stored original
// when there is one), deletes for everyone, read receipts, number checks, profile pictures, and
// rejected calls.
import { isJidGroup, type AnyMessageContent, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys'
import type { OutgoingMedia, SendResult, WhatsAppProvider } from '../provider.ts'
import type { BaileysContext, Socket } from './context.ts'
import { chatJid, jidUser, onlyDigits, phoneToJid, storedMessageContent, storedWAMessage } from './mapping.ts'

export type BaileysSending = Pick<WhatsAppProvider, 'sendText' | 'sendMedia' | 'deleteForEveryone' | 'markRead' | 'checkNumber' | 'profilePictureUrl' | 'rejectCall'>

export function createBaileysSending(context: BaileysContext, callerOf: (callId: string) => string | undefined): BaileysSending {
  const { state, handlers, log, whatsappId } = context

  function requireSocket(): Socket {
    if (!state.socket) throw new Error(`WhatsApp connection ${whatsappId} is not open`)
    return state.socket
  }

  async function storedRaw(id: string): Promise<unknown> {
    try {
      return await handlers.getMessage(id)
    } catch (error) {
      log.warn('baileys stored message lookup failed', { error, id })
      return undefined
    }
  }

  /** The message to quote: the stored original when there is one, else a stub carrying its id. */
  async function quotedMessage(jid: string, quotedId: string): Promise<WAMessage> {
    const stored = await storedRaw(quotedId)
    const full = storedWAMessage(stored)
    if (full) {
      // A one-to-one quote must point at this chat, even if the original came addressed by LID.
      return isJidGroup(jid) ? full : { ...full, key: { ...full.key, remoteJid: jid } }
    }
    return { key: { remoteJid: jid, id: quotedId, fromMe: false }, message: storedMessageContent(stored) ?? { conversation: '' } }
  }

  /** In groups, receipts and deletes of others' messages name the member who wrote them. */
  async function participantOf(id: string): Promise<string | undefined> {
    return storedWAMessage(await storedRaw(id))?.key.participant ?? undefined
  }

  async function send(jid: string, content: AnyMessageContent, quotedId: string | undefined, messageId?: string): Promise<SendResult> {
    const sock = requireSocket()
    const quoted = quotedId ? await quotedMessage(jid, quotedId) : undefined
    // A given id (a campaign's deterministic one) is WhatsApp's key of the message: sent again after a
    // crash, it is the same message for the recipient's devices.
    const options = { ...(quoted ? { quoted } : {}), ...(messageId ? { messageId } : {}) }
    const sent = await sock.sendMessage(jid, content, Object.keys(options).length > 0 ? options : undefined)
    const id = sent?.key.id
    if (!id) throw new Error('WhatsApp returned no message id')
    return { id, raw: sent }
  }

  return {
    sendText({ to, body, quotedId, isGroup, id }) {
      return send(chatJid(to, isGroup), { text: body }, quotedId, id)
    },

    sendMedia({ to, media, quotedId, isGroup, id }) {
      return send(chatJid(to, isGroup), mediaContent(media), quotedId, id)
    },

    async deleteForEveryone({ to, id, fromMe, isGroup }) {
      const sock = requireSocket()
      const jid = chatJid(to, isGroup)
      const key: WAMessageKey = { remoteJid: jid, id, fromMe }
      if (isJidGroup(jid) && !fromMe) {
        const participant = await participantOf(id)
        if (participant) key.participant = participant
      }
      await sock.sendMessage(jid, { delete: key })
    },

    async markRead({ to, ids, isGroup }) {
      const sock = requireSocket()
      const jid = chatJid(to, isGroup)
      const group = isJidGroup(jid)
      const keys: WAMessageKey[] = []
      for (const id of ids) {
        const key: WAMessageKey = { remoteJid: jid, id, fromMe: false }
        const participant = group ? await participantOf(id) : undefined
        if (participant) key.participant = participant
        keys.push(key)
      }
      if (keys.length) await sock.readMessages(keys)
    },

    async checkNumber(number) {
      const sock = requireSocket()
      const digits = onlyDigits(number)
      const [found] = (await sock.onWhatsApp(phoneToJid(digits))) ?? []
      if (!found?.exists) return { exists: false, number: digits }
      return { exists: true, number: jidUser(found.jid) || digits }
    },

    async profilePictureUrl(number) {
      if (!state.socket) return undefined
      try {
        return await state.socket.profilePictureUrl(number.includes('@') ? number : phoneToJid(number), 'image')
      } catch {
        // No picture, or hidden by the contact's privacy settings.
        return undefined
      }
    },

    async rejectCall({ id, from }) {
      const sock = requireSocket()
      await sock.rejectCall(id, callerOf(id) ?? phoneToJid(from))
    },
  }
}

/** The Baileys content for an outgoing media. */
export function mediaContent(media: OutgoingMedia): AnyMessageContent {
  const data = Buffer.from(media.data.buffer, media.data.byteOffset, media.data.byteLength)
  const caption = media.caption ? { caption: media.caption } : {}
  switch (media.kind) {
    case 'image':
      return { image: data, mimetype: media.mimetype, ...caption }
    case 'video':
      return { video: data, mimetype: media.mimetype, ...caption }
    case 'audio':
      return { audio: data, mimetype: media.mimetype, ptt: Boolean(media.voiceNote) }
    case 'document':
      return { document: data, mimetype: media.mimetype, fileName: media.fileName, ...caption }
  }
}
