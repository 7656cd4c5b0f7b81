import { describe, expect, test } from 'bun:test'
import { asciiFileName, sanitiseFileName } from './file-name.ts'

describe('sanitiseFileName', () => {
  test('replaces spaces with underscores (§5) and keeps the extension', () => {
    expect(sanitiseFileName('my invoice 2026.pdf')).toBe('my_invoice_2026.pdf')
    expect(sanitiseFileName('tab\tand\nnewline.txt')).toBe('tab_and_newline.txt')
  })

  test('keeps only the last path segment, so traversal names cannot climb', () => {
    expect(sanitiseFileName('../../etc/passwd')).toBe('passwd')
    expect(sanitiseFileName('..\\..\\windows\\system.ini')).toBe('system.ini')
    expect(sanitiseFileName('C:\\Users\\ana\\photo.jpg')).toBe('photo.jpg')
    expect(sanitiseFileName('..')).toBe('file')
    expect(sanitiseFileName('folder/')).toBe('file')
  })

  test('drops leading dots, control and invisible characters, replaces unsafe ones', () => {
    expect(sanitiseFileName('.htaccess')).toBe('file.htaccess')
    expect(sanitiseFileName('.pdf')).toBe('file.pdf')
    expect(sanitiseFileName('a\u0000b\u0007c.txt')).toBe('abc.txt')
    // A right-to-left override would make "exe.pdf" look like a PDF.
    expect(sanitiseFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe')
    expect(sanitiseFileName('a<b>:"c"|?*.txt')).toBe('a_b___c____.txt')
    expect(sanitiseFileName('100% off & more;.png')).toBe('100__off___more_.png')
    expect(sanitiseFileName('photo (1).jpg')).toBe('photo_(1).jpg')
  })

  test('keeps accented and non-Latin letters, normalised', () => {
    expect(sanitiseFileName('relatório de ação.pdf')).toBe('relatório_de_ação.pdf')
    expect(sanitiseFileName('relato\u0301rio.pdf')).toBe('relatório.pdf')
    expect(sanitiseFileName('фото 日本.jpg')).toBe('фото_日本.jpg')
    expect(sanitiseFileName('😀 party.png')).toBe('__party.png')
  })

  test('is never empty', () => {
    expect(sanitiseFileName('')).toBe('file')
    expect(sanitiseFileName('   ')).toBe('___')
    expect(sanitiseFileName('\u0000\u0001')).toBe('file')
    expect(sanitiseFileName('...')).toBe('file')
  })

  test('truncates long names but keeps the extension, within the byte budget', () => {
    const long = sanitiseFileName(`${'a'.repeat(300)}.docx`)
    expect(long.length).toBe(100)
    expect(long.endsWith('.docx')).toBe(true)
    const wide = sanitiseFileName(`${'日'.repeat(300)}.pdf`)
    expect(wide.endsWith('.pdf')).toBe(true)
    expect(new TextEncoder().encode(wide).byteLength).toBeLessThanOrEqual(200)
  })

  test('an over-long "extension" is part of the name', () => {
    expect(sanitiseFileName('archive.thisisnotanextension')).toBe('archive.thisisnotanextension')
  })
})

describe('asciiFileName', () => {
  test('strips accents and replaces the rest, for the plain filename= parameter', () => {
    expect(asciiFileName('relatório_ação.pdf')).toBe('relatorio_acao.pdf')
    expect(asciiFileName('日本.pdf')).toBe('__.pdf')
  })
})
