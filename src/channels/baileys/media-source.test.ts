import { describe, expect, spyOn, test } from 'bun:test'
import { createCipheriv, createHmac, randomBytes } from 'node:crypto'
import { getMediaKeys, type WAMessage } from '@whiskeysockets/baileys'
import { MediaRefused } from '../provider.ts'
import { defaultMediaHosts } from './context.ts'
import { downloadBaileysMedia } from './media-download.ts'
import { checkMediaUrl, hostAllowed, mediaSourceOf } from './media-source.ts'

const mediaKey = new Uint8Array(32).fill(1)
const image = (media: Record<string, unknown>) => ({ message: { imageMessage: { mimetype: 'image/jpeg', mediaKey, ...media } } }) as unknown as WAMessage

describe('mediaSourceOf: the URL Baileys 7 would fetch', () => {
  test('directPath goes to the host of url, port included (what a forged url exploits)', () => {
    expect(mediaSourceOf(image({ url: 'http://127.0.0.1:5432/x', directPath: '/v/t62/abc' })).url).toBe('https://127.0.0.1:5432/v/t62/abc')
  })

  test('directPath without url goes to mmg.whatsapp.net; url without directPath is fetched as is', () => {
    // Baileys requires the url field to exist (a decoded proto has it, "" by default).
    expect(mediaSourceOf(image({ url: '', directPath: '/v/t62/abc' })).url).toBe('https://mmg.whatsapp.net/v/t62/abc')
    expect(mediaSourceOf(image({ url: 'http://10.0.0.1/enc' })).url).toBe('http://10.0.0.1/enc')
  })

  test('the key and media type for decryption; a message without media, URL or key is refused', () => {
    expect(() => mediaSourceOf(image({ directPath: '/p' }))).toThrow(MediaRefused)
    expect(mediaSourceOf(image({ url: '', directPath: '/p' }))).toMatchObject({ mediaType: 'image', mediaKey })
    expect(() => mediaSourceOf({ message: { conversation: 'hi' } } as WAMessage)).toThrow(MediaRefused)
    expect(() => mediaSourceOf(image({ url: '' }))).toThrow(MediaRefused)
    expect(() => mediaSourceOf(image({ url: '', directPath: '/p', mediaKey: undefined }))).toThrow(MediaRefused)
  })
})

describe('checkMediaUrl: only WhatsApp media hosts over https', () => {
  const allowed = defaultMediaHosts

  test('accepts WhatsApp media hosts', () => {
    expect(checkMediaUrl('https://mmg.whatsapp.net/v/t62/abc?ccb=1', allowed).hostname).toBe('mmg.whatsapp.net')
    expect(checkMediaUrl('https://media-gru1-1.cdn.whatsapp.net/v/t62/abc', allowed).hostname).toBe('media-gru1-1.cdn.whatsapp.net')
    expect(checkMediaUrl('https://MMG.WhatsApp.NET:443/x', allowed).hostname).toBe('mmg.whatsapp.net')
  })

  test.each([
    ['http', 'http://mmg.whatsapp.net/x'],
    ['a port', 'https://mmg.whatsapp.net:8443/x'],
    ['loopback', 'https://127.0.0.1/x'],
    ['a numeric IPv4', 'https://2130706433/x'],
    ['IPv6', 'https://[::1]/x'],
    ['metadata', 'https://169.254.169.254/latest'],
    ['another host', 'https://evil.example/x'],
    ['a look-alike', 'https://mmg.whatsapp.net.evil.example/x'],
    ['a suffix without the dot', 'https://evilwhatsapp.net/x'],
    ['credentials', 'https://user:pass@mmg.whatsapp.net/x'],
    ['file', 'file:///etc/passwd'],
    ['not a URL', 'whatever'],
  ])('refuses %s', (_, url) => {
    expect(() => checkMediaUrl(url, allowed)).toThrow(MediaRefused)
  })

  test('hostAllowed: exact names, and *.domain for the domain and its subdomains', () => {
    expect(hostAllowed('mmg.whatsapp.net', ['mmg.whatsapp.net'])).toBe(true)
    expect(hostAllowed('cdn.whatsapp.net', ['mmg.whatsapp.net'])).toBe(false)
    expect(hostAllowed('whatsapp.net', ['*.whatsapp.net'])).toBe(true)
    expect(hostAllowed('a.b.whatsapp.net.', ['*.whatsapp.net'])).toBe(true)
  })
})

describe('downloadBaileysMedia', () => {
  test('refuses a forged URL before any request is made', async () => {
    const fetchSpy = spyOn(globalThis, 'fetch')
    try {
      const signal = new AbortController().signal
      for (const media of [{ url: 'http://127.0.0.1:9/x', directPath: '/p' }, { url: 'http://127.0.0.1:9/x' }, { url: 'https://evil.example/x' }]) {
        await expect(downloadBaileysMedia(image(media), { allowedHosts: defaultMediaHosts }, { signal })).rejects.toBeInstanceOf(MediaRefused)
      }
      expect(fetchSpy).not.toHaveBeenCalled()
    } finally {
      fetchSpy.mockRestore()
    }
  })

  test('a redirect to a host outside the list is refused, not followed', async () => {
    const fetchSpy = spyOn(globalThis, 'fetch').mockImplementation((async () => new Response(null, { status: 302, headers: { location: 'http://127.0.0.1:5432/' } })) as unknown as typeof fetch)
    try {
      const signal = new AbortController().signal
      await expect(downloadBaileysMedia(image({ url: '', directPath: '/v/t62/abc' }), { allowedHosts: defaultMediaHosts }, { signal })).rejects.toBeInstanceOf(MediaRefused)
      expect(fetchSpy).toHaveBeenCalledTimes(1)
      expect(String(fetchSpy.mock.calls[0]![0])).toBe('https://mmg.whatsapp.net/v/t62/abc')
    } finally {
      fetchSpy.mockRestore()
    }
  })

  test('the phone re-uploads expired media (404): the new URL goes through the same checks', async () => {
    const fetchSpy = spyOn(globalThis, 'fetch').mockImplementation((async () => new Response(null, { status: 404 })) as unknown as typeof fetch)
    try {
      const signal = new AbortController().signal
      const reuploadRequest = async () => image({ url: 'http://127.0.0.1:5432/fresh' })
      await expect(downloadBaileysMedia(image({ url: '', directPath: '/v/t62/old' }), { allowedHosts: defaultMediaHosts, reuploadRequest }, { signal })).rejects.toBeInstanceOf(MediaRefused)
      expect(fetchSpy).toHaveBeenCalledTimes(1)
    } finally {
      fetchSpy.mockRestore()
    }
  })

  test('decrypts what WhatsApp serves (AES-256-CBC, 10-byte MAC at the end) as a stream, in small network chunks', async () => {
    const plain = randomBytes(100_003)
    const key = randomBytes(32)
    const { cipherKey, iv, macKey } = await getMediaKeys(key, 'image')
    const cipher = createCipheriv('aes-256-cbc', cipherKey, iv)
    const encrypted = Buffer.concat([cipher.update(plain), cipher.final()])
    const mac = createHmac('sha256', macKey!).update(Buffer.concat([iv, encrypted])).digest().subarray(0, 10)
    const served = Buffer.concat([encrypted, mac])
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < served.length; offset += 1000) controller.enqueue(served.subarray(offset, offset + 1000))
        controller.close()
      },
    })
    const fetchSpy = spyOn(globalThis, 'fetch').mockImplementation((async () => new Response(body)) as unknown as typeof fetch)
    try {
      const message = image({ url: 'https://mmg.whatsapp.net/d/f/x.enc', directPath: '/v/t62/x', mediaKey: key })
      const stream = await downloadBaileysMedia(message, { allowedHosts: defaultMediaHosts }, { signal: new AbortController().signal })
      const parts: Uint8Array[] = []
      for await (const part of stream) parts.push(part)
      expect(Buffer.concat(parts).equals(plain)).toBe(true)
      expect(String(fetchSpy.mock.calls[0]![0])).toBe('https://mmg.whatsapp.net/v/t62/x')
    } finally {
      fetchSpy.mockRestore()
    }
  })
})
