// The browser bundle must not pull the server in: a value imported from src/ or db/ drags Elysia,
// TypeBox and Drizzle into a page (it happened once: +60 KiB on the inbox). Types are fine, they vanish.
// The one exception is src/contracts/: what both sides share (role rules, realtime channel names),
// which in turn may import nothing but types, so no server code reaches the bundle through it.
import { expect, test } from 'bun:test'
import { Glob } from 'bun'
import { join, resolve } from 'node:path'

/** `import type {...}` and `import { type A, type B }` vanish from the bundle; anything else stays. */
function importsValues(typeOnly: string | undefined, specifiers: string): boolean {
  if (typeOnly) return false
  const everySpecifierIsType = specifiers.startsWith('{') && specifiers.slice(1, -1).split(',').every((name) => name.trim() === '' || name.trim().startsWith('type '))
  return !everySpecifierIsType
}

test('web code imports only types from the server (src/, db/), values only from src/contracts/', async () => {
  const offenders: string[] = []
  for await (const file of new Glob('**/*.{ts,tsx}').scan({ cwd: import.meta.dir })) {
    if (file.endsWith('.test.ts') || file.startsWith('i18n/locales/')) continue
    const source = await Bun.file(join(import.meta.dir, file)).text()
    // Imports and re-exports alike: `export { X } from` a server module bundles it as surely as an import.
    for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?(\{[^}]*\}|[\w*]+(?:\s+as\s+\w+)?)\s+from\s+'((?:\.\.\/)+(?:src|db)\/[^']+)'/gm)) {
      const [, typeOnly, specifiers, path] = match
      if (path!.replace(/^(\.\.\/)+/, '').startsWith('src/contracts/')) continue
      if (importsValues(typeOnly, specifiers!)) offenders.push(`${file}: ${path}`)
    }
  }
  expect(offenders).toEqual([])
})

test('src/contracts/ imports nothing but types, and only through static imports', async () => {
  const contracts = resolve(import.meta.dir, '../src/contracts')
  const offenders: string[] = []
  for await (const file of new Glob('**/*.ts').scan({ cwd: contracts })) {
    if (file.endsWith('.test.ts')) continue
    const source = await Bun.file(join(contracts, file)).text()
    // Every import and re-export statement with a source, on one line or several.
    for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?(\{[^}]*\}|\*(?:\s+as\s+\w+)?|[\w$]+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)\s*from\s+'([^']+)'/gm)) {
      const [, typeOnly, specifiers, path] = match
      if (importsValues(typeOnly, specifiers!.trim())) offenders.push(`${file}: ${path}`)
    }
    // A bare side-effect import (import 'x') or a dynamic import() would load code too.
    for (const match of source.matchAll(/^import\s+'([^']+)'|\bimport\(\s*'([^']+)'/gm)) offenders.push(`${file}: ${match[1] ?? match[2]}`)
  }
  expect(offenders).toEqual([])
})
