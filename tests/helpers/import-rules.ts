// The direction of imports (docs: ARCHITECTURE.md, "Which room may import which"), as a checker the
// boundary test runs over the real files and over synthetic ones (so it cannot pass by parsing nothing).
// Paths are relative to the repository's root, with forward slashes: 'src/core/realtime/hub.ts'.
import { posix } from 'node:path'

export type ImportEdge = { from: string; to: string }

/**
 * Every module specifier a TypeScript source names: static imports and re-exports (type-only ones
 * included: they tie the rooms together just the same), side-effect imports, and import('...')
 * (dynamic, or in a type position). Comments are dropped first so prose does not count.
 */
export function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const found: string[] = []
  const patterns = [
    // import x from '...', import { a,\n b } from '...', import type ..., export { x } from '...', export * from '...'
    /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    // import '...'
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    // import('...'), await import('...'), typeof import('...')
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1]!)
  return found
}

/** The repository path a relative specifier points to; undefined for a package ('drizzle-orm', 'bun:test'). */
export function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  return posix.normalize(posix.join(posix.dirname(from), specifier))
}

const moduleOf = (path: string): string | undefined => /^src\/modules\/([^/]+)\//.exec(path)?.[1]
const isQueries = (path: string): boolean => /^src\/modules\/[^/]+\/queries\.ts$/.test(path)

/** Why this import crosses a rule, or undefined when it is allowed. */
export function ruleBroken({ from, to }: ImportEdge): string | undefined {
  if (from.startsWith('src/core/')) {
    const forbidden = ['src/modules/', 'src/channels/', 'src/web/'].some((room) => to.startsWith(room)) || to === 'src/app.ts' || to === 'src/main.ts'
    if (forbidden) return 'core/ knows no module, channel, web page nor the composition root: hand it what it needs'
  }
  if (from.startsWith('src/modules/') && to.startsWith('src/channels/') && to !== 'src/channels/provider.ts') {
    return 'a module reaches a channel only through the provider port (src/channels/provider.ts)'
  }
  const fromModule = moduleOf(from)
  if (fromModule && isQueries(to) && moduleOf(to) !== fromModule) return "a module calls another module's service, never its queries.ts"
  if (from.startsWith('src/channels/') && isQueries(to)) return "a channel calls module services, never a module's queries.ts"
  if (from.startsWith('db/') && to.startsWith('src/')) return 'db/ (schema, migrations, client) depends on nothing in src/'
  return undefined
}

/** The crossings of one file: "from -> to: why". */
export function crossingsOf(file: string, source: string): string[] {
  const crossings: string[] = []
  for (const specifier of importSpecifiers(source)) {
    const to = resolveSpecifier(file, specifier)
    if (!to) continue
    const why = ruleBroken({ from: file, to })
    if (why) crossings.push(`${file} -> ${to}: ${why}`)
  }
  return crossings
}
