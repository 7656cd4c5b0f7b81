// The interface catalogs: Portuguese and Spanish translate every message (no English left on their
// screens), and the compiled catalogs the pages load match the .po files they come from.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { languages } from '../../web/i18n/languages.ts'

const localesDir = join(import.meta.dir, '..', '..', 'web', 'i18n', 'locales')

/**
 * msgid -> msgstr of a .po file (single-line entries, as Lingui writes them). A message with a
 * context (the same English words meaning another thing) is keyed `context\u0004msgid`.
 */
function readPo(language: string): Map<string, string> {
  const entries = new Map<string, string>()
  const text = readFileSync(join(localesDir, language, 'messages.po'), 'utf8')
  for (const match of text.matchAll(/^(?:msgctxt "(.*)"\n)?msgid "(.*)"\nmsgstr "(.*)"$/gm)) {
    if (match[2]) entries.set(match[1] === undefined ? match[2] : `${match[1]}\u0004${match[2]}`, match[3]!)
  }
  return entries
}

describe('web catalogs', () => {
  test('pt and es translate every message', () => {
    const source = readPo('en')
    expect(source.size).toBeGreaterThan(100)
    for (const language of ['pt', 'es']) {
      const catalog = readPo(language)
      expect([...source.keys()].filter((id) => !catalog.has(id))).toEqual([])
      expect([...catalog].filter(([, translation]) => translation === '').map(([id]) => id)).toEqual([])
    }
  })

  test('the compiled catalogs hold one message per .po entry', async () => {
    const size = readPo('en').size
    for (const language of languages) {
      const { messages } = (await import(join(localesDir, language, 'messages.ts'))) as { messages: Record<string, unknown> }
      expect({ language, size: Object.keys(messages).length }).toEqual({ language, size })
    }
  })

  test('the forced-logout message is the one the spec quotes, in Portuguese', () => {
    expect(readPo('pt').get('Your account was accessed from another computer.')).toBe('Sua conta foi acessada em outro computador.')
  })
})
