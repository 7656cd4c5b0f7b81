// Folds the translations helpers left in web/i18n/pending/*.json ({ "English": { pt, es } }) into the
// pt and es catalogs after `npm run i18n:extract`, then deletes the folded files. Run:
//   npm run i18n:extract && bun scripts/merge-translations.ts && npm run i18n:compile
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dir, '..', 'web', 'i18n')
const pendingDir = join(root, 'pending')
type Pending = Record<string, { pt?: string; es?: string }>

const files = readdirSync(pendingDir).filter((name) => name.endsWith('.json'))
const pending: Pending = {}
for (const file of files) Object.assign(pending, JSON.parse(readFileSync(join(pendingDir, file), 'utf8')) as Pending)

const unquote = (text: string) => JSON.parse(text) as string
const quote = (text: string) => JSON.stringify(text)

for (const language of ['pt', 'es'] as const) {
  const path = join(root, 'locales', language, 'messages.po')
  const lines = readFileSync(path, 'utf8').split('\n')
  let filled = 0
  for (let index = 0; index < lines.length - 1; index += 1) {
    const idLine = lines[index]!
    const strLine = lines[index + 1]!
    if (!idLine.startsWith('msgid "') || !strLine.startsWith('msgstr "')) continue
    const id = unquote(idLine.slice('msgid '.length))
    const current = unquote(strLine.slice('msgstr '.length))
    const translation = pending[id]?.[language]
    if (id && !current && translation) {
      lines[index + 1] = `msgstr ${quote(translation)}`
      filled += 1
    }
  }
  writeFileSync(path, lines.join('\n'))
  const missing = lines.filter((line, index) => line === 'msgstr ""' && lines[index - 1] !== 'msgid ""').length
  console.log(`${language}: ${filled} filled from pending, ${missing} still missing`)
}
for (const file of files) rmSync(join(pendingDir, file))
