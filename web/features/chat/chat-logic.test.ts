// The chat's pure logic: day grouping and conversation markers, location and vcard bodies, ack
// states, quick-reply matching, page merging and MP3 encoding.
import { describe, expect, test } from 'bun:test'
import { maxFilesPerSend as serverMaxFiles } from '../../../src/modules/messages/model.ts'
import { ackState } from './ack.ts'
import { prependPage, upsertMessage, type ChatMessage } from './chat-message.ts'
import { parseLocation, parseVcards } from './message-content.ts'
import { mediaDownloadFailed } from './media-state.ts'
import { downmix, encodeMp3, MIN_RECORDING_BYTES, toInt16 } from './mp3.ts'
import { maxFilesPerSend } from './limits.ts'
import { cutLabel, downloadAttachment, matchQuickReplies, shortcutQuery } from './quick-replies.ts'
import { buildTimeline, dayKey } from './timeline.ts'

function message(id: number, createdAt: Date | string, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    ticketId: 1,
    contactId: 1,
    whatsappId: 1,
    userId: null,
    body: `message ${id}`,
    mediaType: 'chat',
    mediaUrl: null,
    mediaName: null,
    fromMe: false,
    read: true,
    ack: 1,
    isDeleted: false,
    isEdited: false,
    participant: null,
    sendError: null,
    quotedMsgId: null,
    quotedMsg: null,
    contact: null,
    // The wire carries ISO strings (the client does not parse dates): the logic must read both.
    createdAt: createdAt as Date,
    updatedAt: createdAt as Date,
    ...overrides,
  }
}

const at = (day: number, hour: number, minute = 0) => new Date(2026, 10, day, hour, minute)

describe('timeline', () => {
  test('a day separator before the first message of each local day', () => {
    const items = buildTimeline([message(1, at(20, 9)), message(2, at(20, 23, 59).toISOString()), message(3, at(21, 0, 1)), message(4, at(23, 12))], { hasOlder: true })
    expect(items.map((item) => (item.kind === 'day' ? `day ${dayKey(item.day)}` : item.kind === 'message' ? item.message.id : item.kind))).toEqual([
      'day 2026-11-20',
      1,
      2,
      'day 2026-11-21',
      3,
      'day 2026-11-23',
      4,
    ])
  })

  test('the conversation marker: at the first message once no older page remains, and where the ticket changes', () => {
    const messages = [message(1, at(20, 9)), message(2, at(20, 10)), message(3, at(20, 11), { ticketId: 2 }), message(4, at(20, 12), { ticketId: 2 })]
    const kinds = (hasOlder: boolean) => buildTimeline(messages, { hasOlder }).map((item) => (item.kind === 'message' ? item.message.id : item.kind))
    expect(kinds(true)).toEqual(['day', 1, 2, 'conversation', 3, 4])
    expect(kinds(false)).toEqual(['day', 'conversation', 1, 2, 'conversation', 3, 4])
    expect(buildTimeline([], { hasOlder: false })).toEqual([])
  })
})

describe('merging pages and live messages', () => {
  test('an older page goes above; messages repeated by shifted offsets are kept once, the shown copy winning', () => {
    const shown = [message(3, at(20, 3)), message(4, at(20, 4), { isDeleted: true })]
    const older = [message(1, at(20, 1)), message(2, at(20, 2)), message(3, at(20, 3), { body: 'stale' })]
    const merged = prependPage(shown, older)
    expect(merged.map((item) => item.id)).toEqual([1, 2, 3, 4])
    expect(merged[2]!.body).toBe('message 3')
  })

  test('upsert replaces in place (ack, delete) or inserts in time order', () => {
    const shown = [message(1, at(20, 1)), message(3, at(20, 3))]
    expect(upsertMessage(shown, message(3, at(20, 3), { ack: 4 })).map((item) => [item.id, item.ack])).toEqual([[1, 1], [3, 4]])
    expect(upsertMessage(shown, message(2, at(20, 2))).map((item) => item.id)).toEqual([1, 2, 3])
    // Same moment: the id decides, as on the server.
    expect(upsertMessage(shown, message(0, at(20, 3))).map((item) => item.id)).toEqual([1, 0, 3])
  })

  test("a send's answer arriving after the read frame keeps the read ticks; its other fields apply", () => {
    const read = [message(5, at(20, 5), { ack: 4 })]
    const answer = upsertMessage(read, message(5, at(20, 5), { ack: 1, isDeleted: true }))
    expect(answer[0]).toMatchObject({ ack: 4, isDeleted: true })
  })
})

describe('location and vcard bodies', () => {
  test('location: image|link|description, the image optional, unsafe links refused', () => {
    expect(parseLocation('data:image/jpeg;base64,/9j/AA==|https://maps.google.com/maps?q=-23.5%2C-46.6&z=17|Loja Centro, Praça da Sé')).toEqual({
      imageUrl: 'data:image/jpeg;base64,/9j/AA==',
      link: 'https://maps.google.com/maps?q=-23.5%2C-46.6&z=17',
      description: 'Loja Centro, Praça da Sé',
    })
    expect(parseLocation('|https://maps.google.com/maps?q=1.5%2C2.25&z=17')).toEqual({ imageUrl: null, link: 'https://maps.google.com/maps?q=1.5%2C2.25&z=17', description: '' })
    expect(parseLocation('javascript:alert(1)|javascript:alert(1)|x')).toBeNull()
    expect(parseLocation('data:text/html;base64,AAA|https://maps.google.com/|x')?.imageUrl).toBeNull()
    expect(parseLocation('just text')).toBeNull()
  })

  test('vcard: name and numbers, several cards, folded lines and the N fallback', () => {
    const joao = 'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD'
    const ana = 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Souza;Ana;;;\r\nitem1.TEL;waid=5521977776666:+55 21 9777\r\n 7-6666\r\nEND:VCARD'
    expect(parseVcards(`${joao}\n${ana}`)).toEqual([
      { name: 'João', numbers: ['+55 11 98888-7777'] },
      { name: 'Ana Souza', numbers: ['+55 21 97777-6666'] },
    ])
    expect(parseVcards('BEGIN:VCARD\nFN:Bare\nTEL;waid=5511999999999:\nEND:VCARD')).toEqual([{ name: 'Bare', numbers: ['+5511999999999'] }])
    expect(parseVcards('not a card')).toEqual([])
  })
})

describe('ack', () => {
  test('0 is failed with a send error, pending without; 1-2 sent, 3 delivered, 4 read, 5 played', () => {
    const state = (ack: number, sendError: string | null = null) => ackState({ ack, sendError })
    expect([state(0, 'refused'), state(0), state(1), state(2), state(3), state(4), state(5)]).toEqual(['failed', 'pending', 'sent', 'sent', 'delivered', 'read', 'played'])
  })
})

describe('quick replies', () => {
  const quick = [
    { id: 1, shortcode: 'bomdia', message: 'Bom dia! Como posso ajudar você hoje com o seu pedido?', status: true },
    { id: 2, shortcode: 'preco', message: 'Nossos preços', status: true },
    { id: 3, shortcode: 'adeus-bom', message: 'Até logo', status: true },
    { id: 4, shortcode: 'bominativo', message: 'off', status: false },
  ]

  test('only a leading / with no space makes a shortcut query', () => {
    expect(shortcutQuery('/Bom')).toBe('bom')
    expect(shortcutQuery('/')).toBe('')
    expect(shortcutQuery('hello /bom')).toBeNull()
    expect(shortcutQuery('/bom dia')).toBeNull()
  })

  test('matches active shortcodes containing the text, prefix matches first, labels cut at 35 characters', () => {
    const options = matchQuickReplies('/bom', quick)
    expect(options.map((option) => option.id)).toEqual([1, 3])
    expect(options[0]!.label).toBe(`${'/bomdia - Bom dia! Como posso ajuda'}…`)
    expect(options[0]!.label.length).toBe(36)
    expect(options[0]!.message).toBe(quick[0]!.message)
    expect(matchQuickReplies('/', quick).map((option) => option.id)).toEqual([3, 1, 2])
    expect(matchQuickReplies('bom', quick)).toEqual([])
    expect(cutLabel('short')).toBe('short')
  })

  // The bug: choosing a quick reply with an attachment sent its text only. The option now carries the
  // attachment, which the input downloads and sends with the text.
  test('a quick reply with an attachment carries it, and the file comes back as a File to send', async () => {
    const withMedia = [{ id: 9, shortcode: 'catalogo', message: 'Segue o catálogo', status: true, mediaUrl: '/public/7/2026-11/x-catalogo.pdf?sig=1', mediaName: 'catalogo.pdf' }]
    const [option] = matchQuickReplies('/cat', withMedia)
    expect(option!.media).toEqual({ url: '/public/7/2026-11/x-catalogo.pdf?sig=1', name: 'catalogo.pdf' })
    expect(matchQuickReplies('/bom', quick)[0]!.media).toBeUndefined()
    const requested: string[] = []
    const file = await downloadAttachment(option!.media!, async (url) => {
      requested.push(url)
      return new Response(new Blob(['%PDF-1.4'], { type: 'application/pdf' }))
    })
    expect(requested).toEqual(['/public/7/2026-11/x-catalogo.pdf?sig=1'])
    expect([file.name, file.type, await file.text()]).toEqual(['catalogo.pdf', 'application/pdf', '%PDF-1.4'])
    expect(downloadAttachment(option!.media!, async () => new Response('gone', { status: 404 }))).rejects.toThrow('404')
  })
})

describe('mp3', () => {
  test('PCM conversion clips and downmix averages', () => {
    expect(Array.from(toInt16(Float32Array.from([0, 1, -1, 2, -2, 0.5])))).toEqual([0, 32767, -32768, 32767, -32768, 16383])
    expect(Array.from(downmix([Float32Array.from([1, 0.5]), Float32Array.from([0, 0.5])]))).toEqual([0.5, 0.5])
  })

  test('encodes 128 kbps MPEG audio frames; a second of sound passes the 10000-byte floor, a blip does not', async () => {
    const rate = 44_100
    const tone = (seconds: number) => Float32Array.from({ length: Math.round(rate * seconds) }, (_, index) => 0.4 * Math.sin((2 * Math.PI * 440 * index) / rate))
    const second = await encodeMp3(tone(1), rate)
    // Frame sync (11 bits set), MPEG-1 Layer III, bitrate index 9 = 128 kbps.
    expect(second[0]).toBe(0xff)
    expect(second[1]! & 0xe0).toBe(0xe0)
    expect((second[2]! >> 4) & 0x0f).toBe(9)
    // 128 kbps for one second is about 16000 bytes.
    expect(second.length).toBeGreaterThan(14_000)
    expect(second.length).toBeLessThan(18_000)
    expect(second.length).toBeGreaterThanOrEqual(MIN_RECORDING_BYTES)
    expect((await encodeMp3(tone(0.2), rate)).length).toBeLessThan(MIN_RECORDING_BYTES)
  })
})

test("the input's file limit is the server's", () => {
  expect(maxFilesPerSend).toBe(serverMaxFiles)
})

describe('media download state', () => {
  test('a received file-type message without a file and with ERR_WAPP_DOWNLOAD_MEDIA failed; others did not', () => {
    expect(mediaDownloadFailed(message(1, at(20, 9), { mediaType: 'image', sendError: 'ERR_WAPP_DOWNLOAD_MEDIA' }))).toBe(true)
    expect(mediaDownloadFailed(message(2, at(20, 9), { mediaType: 'application', sendError: 'ERR_WAPP_DOWNLOAD_MEDIA' }))).toBe(true)
    // Still on its way, arrived, or not a file at all.
    expect(mediaDownloadFailed(message(3, at(20, 9), { mediaType: 'image' }))).toBe(false)
    expect(mediaDownloadFailed(message(4, at(20, 9), { mediaType: 'image', mediaUrl: '/public/x', sendError: 'ERR_WAPP_DOWNLOAD_MEDIA' }))).toBe(false)
    expect(mediaDownloadFailed(message(5, at(20, 9), { mediaType: 'chat', sendError: 'ERR_WAPP_DOWNLOAD_MEDIA' }))).toBe(false)
    expect(mediaDownloadFailed(message(6, at(20, 9), { mediaType: 'image', sendError: 'ERR_SENDING_WAPP_MSG' }))).toBe(false)
    // Sent from the phone itself, its media lost: not a failed send.
    expect(ackState({ ack: 0, sendError: 'ERR_WAPP_DOWNLOAD_MEDIA' })).toBe('pending')
  })
})
