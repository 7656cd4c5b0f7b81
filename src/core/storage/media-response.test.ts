import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mediaResponse } from './media-response.ts'

const folder = mkdtempSync(join(tmpdir(), 'zapdesk-media-response-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

function fileNamed(name: string, content = '0123456789') {
  writeFileSync(join(folder, name), content)
  return Bun.file(join(folder, name))
}

const prefix = '0123456789abcdef0123456789abcdef-'

function respond(name: string, range: string | null = null) {
  return mediaResponse(fileNamed(prefix + name), { path: `1/2026-11/${prefix}${name}`, remainingSeconds: 120, range })
}

describe('mediaResponse', () => {
  test('serves images, audio and video inline under their own type', () => {
    for (const [name, type] of [['a.png', 'image/png'], ['a.jpg', 'image/jpeg'], ['a.ogg', 'audio/ogg'], ['a.mp4', 'video/mp4']] as const) {
      const response = respond(name)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(type)
      expect(response.headers.get('content-disposition')).toBe(`inline; filename="${name}"; filename*=UTF-8''${name}`)
      expect(response.headers.get('cache-control')).toBe('private, max-age=120')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  test('serves documents as downloads under their own type, with the exact name in filename*', () => {
    const response = respond('relatório.pdf')
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="relatorio.pdf"; filename*=UTF-8''relat%C3%B3rio.pdf`)
  })

  test('serves anything a browser could run as an anonymous download', () => {
    for (const name of ['a.html', 'a.htm', 'a.svg', 'a.xhtml', 'a.xml', 'a.js', 'a.css', 'a.unknown', 'noextension']) {
      const response = respond(name)
      expect(response.headers.get('content-type')).toBe('application/octet-stream')
      expect(response.headers.get('content-disposition')).toStartWith('attachment;')
    }
  })

  test('answers byte ranges (seeking in audio and video)', async () => {
    const middle = respond('b.mp4', 'bytes=2-5')
    expect(middle.status).toBe(206)
    expect(middle.headers.get('content-range')).toBe('bytes 2-5/10')
    expect(await middle.text()).toBe('2345')
    const open = respond('c.mp4', 'bytes=7-')
    expect(await open.text()).toBe('789')
    const suffix = respond('d.mp4', 'bytes=-3')
    expect(suffix.headers.get('content-range')).toBe('bytes 7-9/10')
    expect(await suffix.text()).toBe('789')
    const beyond = respond('e.mp4', 'bytes=5-100')
    expect(await beyond.text()).toBe('56789')
  })

  test('refuses an unsatisfiable range and ignores one it does not understand', async () => {
    const outside = respond('f.mp4', 'bytes=10-')
    expect(outside.status).toBe(416)
    expect(outside.headers.get('content-range')).toBe('bytes */10')
    expect(respond('g.mp4', 'bytes=5-2').status).toBe(416)
    for (const header of ['bytes=0-1,4-5', 'items=0-1', 'bytes=-', 'nonsense']) {
      const whole = respond('h.mp4', header)
      expect(whole.status).toBe(200)
      expect(await whole.text()).toBe('0123456789')
    }
  })
})
