// Baileys payloads (built as Baileys builds them, through the protobuf classes) mapped to the port's types.
import { describe, expect, mock, test } from 'bun:test'
import { BufferJSON, proto, WAMessageStatus, WAMessageStubType, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys'
import {
  ackFromReceipt,
  ackFromStatus,
  chatJid,
  groupToJid,
  jidUser,
  mapCall,
  mapContact,
  mapMessageUpdate,
  mapReceiptUpdate,
  mapWAMessage,
  phoneToJid,
  createMediaDownloader,
  storedMessageContent,
  storedMessageMedia,
  storedWAMessage,
  toInboundMessage,
  type MappingOptions,
} from './mapping.ts'
import { defaultMediaHosts } from './context.ts'
import { MediaRefused } from './media-source.ts'
import { storableRaw } from '../../modules/messages/storable.ts'

const CUSTOMER = '5511999990000@s.whatsapp.net'
const CUSTOMER_LID = '123456789012345@lid'
const GROUP = '120363012345678901@g.us'
const TIMESTAMP = 1_767_225_600 // 2026-01-01T00:00:00Z

/** A received message as Baileys hands it over: a protobuf WebMessageInfo plus v7's key extras. */
function received(message: proto.IMessage, key: Partial<WAMessageKey> = {}, extra: Record<string, unknown> = {}): WAMessage {
  const info = proto.WebMessageInfo.fromObject({
    key: { remoteJid: CUSTOMER, fromMe: false, id: '3EB0C0FFEE', ...key },
    messageTimestamp: TIMESTAMP,
    pushName: 'Maria',
    message,
    ...extra,
  }) as WAMessage
  // fromObject keeps only protobuf fields; v7 adds the alternate JIDs on the plain key object.
  if (key.remoteJidAlt) info.key.remoteJidAlt = key.remoteJidAlt
  if (key.participantAlt) info.key.participantAlt = key.participantAlt
  return info
}

const bytes = new Uint8Array([1, 2, 3])
const options = (overrides: Partial<MappingOptions> = {}): MappingOptions => ({ download: mock(async () => bytes), ...overrides })

function inbound(raw: WAMessage, overrides: Partial<MappingOptions> = {}) {
  const mapped = mapWAMessage(raw, options(overrides))
  if (mapped?.kind !== 'message') throw new Error(`expected a message, got ${JSON.stringify(mapped)}`)
  return mapped.message
}

describe('JIDs', () => {
  test('phone digits and JIDs both ways, groups apart', () => {
    expect(phoneToJid('+55 (11) 99999-0000')).toBe(CUSTOMER)
    expect(phoneToJid('5511999990000:12@s.whatsapp.net')).toBe(CUSTOMER)
    expect(jidUser('5511999990000:3@s.whatsapp.net')).toBe('5511999990000')
    expect(jidUser(GROUP)).toBe('120363012345678901')
    expect(groupToJid('120363012345678901')).toBe(GROUP)
    expect(groupToJid('5511999990000-1600000000')).toBe('5511999990000-1600000000@g.us')
    expect(chatJid('5511999990000')).toBe(CUSTOMER)
    expect(chatJid('120363012345678901', true)).toBe(GROUP)
    expect(chatJid(CUSTOMER_LID)).toBe(CUSTOMER_LID)
  })
})

describe('mapWAMessage', () => {
  test('plain text', () => {
    const message = inbound(received({ conversation: 'Olá, preciso de ajuda' }))
    expect(message).toMatchObject({
      id: '3EB0C0FFEE',
      from: '5511999990000',
      fromMe: false,
      pushName: 'Maria',
      isGroup: false,
      body: 'Olá, preciso de ajuda',
      mediaType: 'chat',
    })
    expect(message.timestamp).toEqual(new Date(TIMESTAMP * 1000))
    expect(message.quotedId).toBeUndefined()
    expect(message.media).toBeUndefined()
    expect(message.raw).toBeDefined()
  })

  test('extended text with a quote gives the quoted id', () => {
    const message = inbound(
      received({
        extendedTextMessage: {
          text: 'Sobre isso aqui',
          contextInfo: { stanzaId: 'QUOTED01', participant: CUSTOMER, quotedMessage: { conversation: 'original' } },
        },
      }),
    )
    expect(message.body).toBe('Sobre isso aqui')
    expect(message.quotedId).toBe('QUOTED01')
  })

  test('our own message echoed from the phone keeps the customer as from', () => {
    const message = inbound(received({ conversation: 'sent from phone' }, { fromMe: true }))
    expect(message.fromMe).toBe(true)
    expect(message.from).toBe('5511999990000')
  })

  test('image with caption downloads through the injected downloader', async () => {
    const download = mock(async () => bytes)
    const raw = received({ imageMessage: { caption: 'foto do produto', mimetype: 'image/jpeg', mediaKey: new Uint8Array(32), directPath: '/v/t62/x' } })
    const message = inbound(raw, { download })
    expect(message).toMatchObject({ mediaType: 'image', body: 'foto do produto' })
    expect(message.media!.mimetype).toBe('image/jpeg')
    const signal = new AbortController().signal
    expect(await message.media!.download({ signal })).toEqual(bytes)
    expect(download).toHaveBeenCalledWith(raw, { signal })
  })

  test('voice note (ptt) is audio', () => {
    const message = inbound(received({ audioMessage: { ptt: true, seconds: 4, mimetype: 'audio/ogg; codecs=opus' } }))
    expect(message).toMatchObject({ mediaType: 'audio', body: '' })
    expect(message.media!.mimetype).toBe('audio/ogg; codecs=opus')
  })

  test('video, sticker and view-once media are unwrapped', () => {
    expect(inbound(received({ videoMessage: { caption: 'vídeo', mimetype: 'video/mp4' } }))).toMatchObject({ mediaType: 'video', body: 'vídeo' })
    expect(inbound(received({ stickerMessage: { mimetype: 'image/webp' } }))).toMatchObject({ mediaType: 'sticker' })
    const viewOnce = inbound(received({ viewOnceMessageV2: { message: { imageMessage: { caption: 'once', mimetype: 'image/jpeg' } } } }))
    expect(viewOnce).toMatchObject({ mediaType: 'image', body: 'once' })
  })

  test('document keeps its file name, caption wins as body', () => {
    const plain = inbound(received({ documentMessage: { fileName: 'boleto.pdf', mimetype: 'application/pdf' } }))
    expect(plain).toMatchObject({ mediaType: 'application', body: 'boleto.pdf' })
    expect(plain.media).toMatchObject({ mimetype: 'application/pdf', fileName: 'boleto.pdf' })
    const captioned = inbound(
      received({ documentWithCaptionMessage: { message: { documentMessage: { fileName: 'nota.pdf', caption: 'segue a nota', mimetype: 'application/pdf' } } } }),
    )
    expect(captioned).toMatchObject({ mediaType: 'application', body: 'segue a nota' })
    expect(captioned.media!.fileName).toBe('nota.pdf')
  })

  test('location body is image|link|description', () => {
    const thumbnail = new Uint8Array([0xff, 0xd8, 0xff])
    const message = inbound(
      received({ locationMessage: { degreesLatitude: -23.5505, degreesLongitude: -46.6333, name: 'Loja Centro', address: 'Praça da Sé, São Paulo', jpegThumbnail: thumbnail } }),
    )
    expect(message.mediaType).toBe('locationMessage')
    expect(message.body).toBe(
      `data:image/jpeg;base64,${Buffer.from(thumbnail).toString('base64')}|https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17|Loja Centro, Praça da Sé, São Paulo`,
    )
    const bare = inbound(received({ locationMessage: { degreesLatitude: 1.5, degreesLongitude: 2.25 } }))
    expect(bare.body).toBe('|https://maps.google.com/maps?q=1.5%2C2.25&z=17')
  })

  test('contact and contacts array are vcards', () => {
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD'
    expect(inbound(received({ contactMessage: { displayName: 'João', vcard } }))).toMatchObject({ mediaType: 'vcard', body: vcard })
    const other = vcard.replace('João', 'Ana')
    const many = inbound(received({ contactsArrayMessage: { displayName: '2 contatos', contacts: [{ vcard }, { vcard: other }] } }))
    expect(many).toMatchObject({ mediaType: 'vcard', body: `${vcard}\n${other}` })
  })

  test('menu answers are text', () => {
    expect(inbound(received({ buttonsResponseMessage: { selectedButtonId: '1', selectedDisplayText: 'Financeiro' } })).body).toBe('Financeiro')
    expect(inbound(received({ listResponseMessage: { title: 'Suporte', singleSelectReply: { selectedRowId: '2' } } })).body).toBe('Suporte')
  })

  test('revoke is an update, not a message', () => {
    const raw = received({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { remoteJid: CUSTOMER, fromMe: false, id: 'GONE01' } } })
    expect(mapWAMessage(raw, options())).toEqual({ kind: 'revoke', id: 'GONE01' })
    expect(toInboundMessage(raw, options())).toBeUndefined()
  })

  test('edit (edited message wrapping a MESSAGE_EDIT) is an update with the new text', () => {
    const raw = received({
      editedMessage: {
        message: {
          protocolMessage: {
            type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
            key: { remoteJid: CUSTOMER, fromMe: false, id: 'EDIT01' },
            editedMessage: { conversation: 'texto corrigido' },
          },
        },
      },
    })
    expect(mapWAMessage(raw, options())).toEqual({ kind: 'edit', id: 'EDIT01', body: 'texto corrigido' })
  })

  test('status broadcast, newsletters, reactions and empty protocol messages are ignored', () => {
    expect(mapWAMessage(received({ conversation: 'story' }, { remoteJid: 'status@broadcast', participant: CUSTOMER }), options())).toBeUndefined()
    expect(mapWAMessage(received({ conversation: 'news' }, { remoteJid: '120363999999999999@newsletter' }), options())).toBeUndefined()
    expect(mapWAMessage(received({ reactionMessage: { key: { id: 'X' }, text: '👍' } }), options())).toBeUndefined()
    expect(mapWAMessage(received({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 0 } }), options())).toBeUndefined()
    expect(mapWAMessage(received({}), options())).toBeUndefined()
    expect(mapWAMessage(received({ senderKeyDistributionMessage: { groupId: GROUP } }), options())).toBeUndefined()
  })

  test('group message: the group is from, the member is participant', () => {
    const message = inbound(received({ conversation: 'bom dia grupo' }, { remoteJid: GROUP, participant: '5511977776666@s.whatsapp.net' }))
    expect(message).toMatchObject({ isGroup: true, from: '120363012345678901', participant: '5511977776666', body: 'bom dia grupo' })
    expect(message.lid).toBeUndefined()
  })

  test('group member addressed by LID resolves through participantAlt', () => {
    const message = inbound(received({ conversation: 'oi' }, { remoteJid: GROUP, participant: '99887766554433@lid', participantAlt: '5511977776666@s.whatsapp.net' }))
    expect(message).toMatchObject({ isGroup: true, participant: '5511977776666', lid: '99887766554433@lid' })
  })

  test('LID sender: phone from remoteJidAlt, LID kept', () => {
    const message = inbound(received({ conversation: 'por LID' }, { remoteJid: CUSTOMER_LID, remoteJidAlt: CUSTOMER }))
    expect(message).toMatchObject({ from: '5511999990000', lid: CUSTOMER_LID })
  })

  test('LID sender without alt: the lookup gives the phone; unknown LID falls back to its digits', () => {
    const raw = received({ conversation: 'por LID' }, { remoteJid: CUSTOMER_LID })
    expect(inbound(raw, { phoneForLid: (lid) => (lid === CUSTOMER_LID ? CUSTOMER : undefined) })).toMatchObject({ from: '5511999990000', lid: CUSTOMER_LID })
    expect(inbound(raw, { phoneForLid: () => '5511999990000' })).toMatchObject({ from: '5511999990000' })
    expect(inbound(raw)).toMatchObject({ from: '123456789012345', lid: CUSTOMER_LID })
  })

  test('PN sender with a LID alternate keeps both', () => {
    expect(inbound(received({ conversation: 'x' }, { remoteJidAlt: CUSTOMER_LID }))).toMatchObject({ from: '5511999990000', lid: CUSTOMER_LID })
  })
})

describe('acks and updates', () => {
  test('WAMessageStatus numbers are the port acks', () => {
    expect(ackFromStatus(WAMessageStatus.ERROR)).toBe(0)
    expect(ackFromStatus(WAMessageStatus.PENDING)).toBe(1)
    expect(ackFromStatus(WAMessageStatus.SERVER_ACK)).toBe(2)
    expect(ackFromStatus(WAMessageStatus.DELIVERY_ACK)).toBe(3)
    expect(ackFromStatus(WAMessageStatus.READ)).toBe(4)
    expect(ackFromStatus(WAMessageStatus.PLAYED)).toBe(5)
    expect(ackFromStatus(undefined)).toBeUndefined()
    expect(ackFromStatus(null)).toBeUndefined()
  })

  test('messages.update: status, revoke, edit', () => {
    const key = { remoteJid: CUSTOMER, fromMe: true, id: 'OUT01' }
    expect(mapMessageUpdate({ key, update: { status: WAMessageStatus.DELIVERY_ACK } })).toEqual([{ kind: 'ack', id: 'OUT01', ack: 3 }])
    expect(mapMessageUpdate({ key, update: { message: null, messageStubType: WAMessageStubType.REVOKE, key } })).toEqual([{ kind: 'revoke', id: 'OUT01' }])
    expect(mapMessageUpdate({ key, update: { message: { editedMessage: { message: { conversation: 'novo texto' } } }, messageTimestamp: TIMESTAMP } })).toEqual([
      { kind: 'edit', id: 'OUT01', body: 'novo texto' },
    ])
    expect(mapMessageUpdate({ key, update: { starred: true } })).toEqual([])
  })

  test('message-receipt.update (groups): played > read > delivered', () => {
    const key = { remoteJid: GROUP, fromMe: true, id: 'OUT02' }
    expect(mapReceiptUpdate({ key, receipt: { userJid: CUSTOMER, receiptTimestamp: TIMESTAMP } })).toEqual({ id: 'OUT02', ack: 3 })
    expect(mapReceiptUpdate({ key, receipt: { userJid: CUSTOMER, readTimestamp: TIMESTAMP } })).toEqual({ id: 'OUT02', ack: 4 })
    expect(ackFromReceipt({ playedTimestamp: TIMESTAMP, readTimestamp: TIMESTAMP })).toBe(5)
    expect(mapReceiptUpdate({ key, receipt: { userJid: CUSTOMER } })).toBeUndefined()
  })
})

describe('contacts and calls', () => {
  test('contacts give digits and a name; LID contacts need their phone', () => {
    expect(mapContact({ id: CUSTOMER, notify: 'Maria' })).toEqual({ number: '5511999990000', name: 'Maria' })
    expect(mapContact({ id: CUSTOMER, name: 'Maria Souza', notify: 'Maria', lid: CUSTOMER_LID })).toEqual({ number: '5511999990000', name: 'Maria Souza', lid: CUSTOMER_LID })
    expect(mapContact({ id: CUSTOMER_LID, phoneNumber: CUSTOMER, notify: 'Maria' })).toEqual({ number: '5511999990000', name: 'Maria', lid: CUSTOMER_LID })
    expect(mapContact({ id: CUSTOMER_LID, notify: 'Maria' })).toBeUndefined()
    expect(mapContact({ id: GROUP, name: 'Grupo' })).toBeUndefined()
  })

  test('only live call offers are calls', () => {
    const date = new Date(TIMESTAMP * 1000)
    const offer = { chatId: CUSTOMER, from: CUSTOMER, id: 'CALL01', date, status: 'offer' as const, offline: false }
    expect(mapCall(offer)).toEqual({ id: 'CALL01', from: '5511999990000', timestamp: date })
    expect(mapCall({ ...offer, from: CUSTOMER_LID, callerPn: CUSTOMER })).toEqual({ id: 'CALL01', from: '5511999990000', timestamp: date })
    expect(mapCall({ ...offer, status: 'terminate' })).toBeUndefined()
    expect(mapCall({ ...offer, offline: true })).toBeUndefined()
  })
})

describe('stored raw messages', () => {
  test('the raw handed over (object or BufferJSON text) comes back for quoting and retries', () => {
    const raw = received({ imageMessage: { caption: 'foto', mediaKey: new Uint8Array([9, 9, 9]), mimetype: 'image/jpeg' } })
    for (const stored of [raw, JSON.stringify(raw, BufferJSON.replacer), JSON.stringify(raw)]) {
      const message = storedWAMessage(stored)!
      expect(message.key.id).toBe('3EB0C0FFEE')
      expect(message.message!.imageMessage!.caption).toBe('foto')
      expect(Buffer.from(message.message!.imageMessage!.mediaKey!)).toEqual(Buffer.from([9, 9, 9]))
      expect(storedMessageContent(stored)!.imageMessage!.caption).toBe('foto')
    }
    expect(storedMessageContent({ conversation: 'only content' })!.conversation).toBe('only content')
    expect(storedWAMessage(undefined)).toBeUndefined()
    expect(storedMessageContent('not json')).toBeUndefined()
  })
})

describe('media rebuilt from a stored raw message (recovery after a restart)', () => {
  const signal = new AbortController().signal
  const mediaKey = new Uint8Array(32).fill(7)

  test('as the messages module stores it (jsonb, bytes as base64): same descriptor, same message handed to the downloader', async () => {
    const raw = received({ documentMessage: { fileName: 'nota.pdf', mimetype: 'application/pdf', mediaKey, directPath: '/v/t62/doc', url: 'https://mmg.whatsapp.net/v/t62/doc' } })
    const download = mock(async () => bytes)
    const media = storedMessageMedia(storableRaw(raw), download)!
    expect(media).toMatchObject({ mimetype: 'application/pdf', fileName: 'nota.pdf' })
    expect(await media.download({ signal })).toEqual(bytes)
    const [handed] = download.mock.calls[0] as unknown as [WAMessage]
    expect(handed.key.id).toBe('3EB0C0FFEE')
    expect(Buffer.from(handed.message!.documentMessage!.mediaKey!)).toEqual(Buffer.from(mediaKey))
    expect(handed.message!.documentMessage!.directPath).toBe('/v/t62/doc')
  })

  test('no media in it, or not a Baileys message: nothing to rebuild', () => {
    const download = mock(async () => bytes)
    expect(storedMessageMedia(storableRaw(received({ conversation: 'oi' })), download)).toBeUndefined()
    expect(storedMessageMedia({ fake: 'image' }, download)).toBeUndefined()
    expect(storedMessageMedia(null, download)).toBeUndefined()
    expect(download).not.toHaveBeenCalled()
  })

  test('a host outside the allowlist is still refused, before any request', async () => {
    let requests = 0
    const local = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => (requests++, new Response(new Uint8Array(16))) })
    try {
      const download = createMediaDownloader({ allowedHosts: defaultMediaHosts })
      for (const source of [{ url: `http://127.0.0.1:${local.port}/enc` }, { url: `http://127.0.0.1:${local.port}/enc`, directPath: '/v/t62/secret' }, { url: 'https://evil.example/enc' }]) {
        const media = storedMessageMedia(storableRaw(received({ imageMessage: { mimetype: 'image/png', mediaKey, ...source } })), download)!
        expect(media.mimetype).toBe('image/png')
        await expect(media.download({ signal })).rejects.toBeInstanceOf(MediaRefused)
      }
      expect(requests).toBe(0)
    } finally {
      local.stop(true)
    }
  })
})
