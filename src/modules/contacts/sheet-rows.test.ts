import { describe, expect, test } from 'bun:test'
import { csvDelimiter, decodeCsvChunks } from './csv-stream.ts'
import { headerKey, readSheetRow } from './sheet-rows.ts'

describe('readSheetRow', () => {
  test('finds the columns in Portuguese or English, whatever the case and accents', () => {
    expect(readSheetRow({ Nome: ' Ana ', 'Número': '(11) 98765-4321', 'E-mail': 'ana@example.com' })).toEqual({
      kind: 'contact',
      name: 'Ana',
      number: '5511987654321',
      email: 'ana@example.com',
    })
    expect(readSheetRow({ NAME: 'Bob', TELEFONE: 5511912345678 })).toEqual({ kind: 'contact', name: 'Bob', number: '5511912345678', email: '' })
    expect(readSheetRow({ name: 'Cy', celular: '', phone: '5511912345679' })).toMatchObject({ kind: 'contact', number: '5511912345679' })
    expect(headerKey(' Número do WhatsApp ')).toBe('numerodowhatsapp')
  })

  test('a blank row is just blank; a bad one says why', () => {
    expect(readSheetRow({})).toEqual({ kind: 'blank' })
    expect(readSheetRow({ name: '', number: null, other: ' ' })).toEqual({ kind: 'blank' })
    expect(readSheetRow({ number: '5511987654321' })).toMatchObject({ kind: 'rejected', reason: 'MISSING_NAME' })
    expect(readSheetRow({ name: 'A', number: '5511987654321' })).toMatchObject({ kind: 'rejected', reason: 'INVALID_NAME' })
    expect(readSheetRow({ name: 'x'.repeat(51), number: '5511987654321' })).toMatchObject({ kind: 'rejected', reason: 'INVALID_NAME' })
    expect(readSheetRow({ name: 'Ana' })).toMatchObject({ kind: 'rejected', reason: 'MISSING_NUMBER' })
    expect(readSheetRow({ name: 'Ana', number: '123' })).toMatchObject({ kind: 'rejected', reason: 'INVALID_NUMBER' })
    expect(readSheetRow({ name: 'Ana', number: '5511987654321', email: 'not-an-email' })).toMatchObject({ kind: 'rejected', reason: 'INVALID_EMAIL' })
  })
})

describe('CSV text', () => {
  test('UTF-8 without its BOM, a character split between chunks kept whole; Windows-1252 when asked', async () => {
    const text = async (chunks: Uint8Array[], encoding: 'utf-8' | 'windows-1252') => (await Array.fromAsync(decodeCsvChunks((async function* () { yield* chunks })(), encoding))).join('')
    const bytes = new TextEncoder().encode('\uFEFFnome;número')
    expect(await text([bytes.slice(0, 10), bytes.slice(10)], 'utf-8')).toBe('nome;número')
    expect(await text([Uint8Array.from([0x6e, 0xfa, 0x6d])], 'windows-1252')).toBe('núm')
    // Not UTF-8: the caller reads it again as Windows-1252.
    expect(text([Uint8Array.from([0x6e, 0xfa, 0x6d])], 'utf-8')).rejects.toThrow()
  })

  test('the separator is the one the header uses', () => {
    expect(csvDelimiter('nome;numero;email\nAna;1;a')).toBe(';')
    expect(csvDelimiter('name,number\n')).toBe(',')
    expect(csvDelimiter('name\tnumber')).toBe('\t')
    expect(csvDelimiter('name')).toBe(',')
  })
})
