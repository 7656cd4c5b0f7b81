// The browser bundle must not pull the server in: a value imported from src/ or db/ drags Elysia,
// TypeBox and Drizzle into a page (it happened once: +60 KiB on the inbox). Types are fine, they vanish.
import { expect, test } from 'bun:test'
import { Glob } from 'bun'
import { join } from 'node:path'

test('web code imports only types from the server (src/, db/)', async () => {
  const offenders: string[] = []
  for await (const file of new Glob('**/*.{ts,tsx}').scan({ cwd: import.meta.dir })) {
    if (file.endsWith('.test.ts') || file.startsWith('i18n/locales/')) continue
    const source = await Bun.file(join(import.meta.dir, file)).text()
    for (const match of source.matchAll(/^import\s+(type\s+)?(\{[^}]*\}|[\w*]+(?:\s+as\s+\w+)?)\s+from\s+'((?:\.\.\/)+(?:src|db)\/[^']+)'/gm)) {
      const [, typeOnly, specifiers, path] = match
      // `import type {...}` and `import { type A, type B }` vanish from the bundle; anything else stays.
      const everySpecifierIsType = specifiers!.startsWith('{') && specifiers!.slice(1, -1).split(',').every((name) => name.trim() === '' || name.trim().startsWith('type '))
      if (!typeOnly && !everySpecifierIsType) offenders.push(`${file}: ${path}`)
    }
  }
  expect(offenders).toEqual([])
})
