// Builds every island (web/islands/<page>/main.tsx) into dist/web/assets with hashed names and writes
// dist/web/manifest.json: per island its entry script, the chunks it imports (preloaded by the HTML
// shell) and its stylesheets; per language the catalog chunk (preloaded for the stored language).
// Run directly (`bun web/build.ts`, the prestart script) or through ensureWebBuild at server start.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, join, relative, resolve } from 'node:path'
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib'
import { linguiMacroPlugin } from './lingui-plugin.ts'
import { assetsDir, distDir, manifestPath, sourceFingerprint, webRoot, type WebManifest } from './build-manifest.ts'
import { languages } from './i18n/languages.ts'

const islandsDir = join(webRoot, 'islands')

function islandEntries(): string[] {
  return readdirSync(islandsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(islandsDir, entry.name, 'main.tsx'))
}

/** Text assets are also stored compressed, so the server answers with the smallest encoding the browser takes. */
function writeCompressed(file: string): void {
  if (!/\.(js|css|svg|json)$/.test(file) || existsSync(`${file}.br`)) return
  const bytes = readFileSync(file)
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }))
  writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }))
}

/**
 * Files of earlier builds stay a week: a tab opened before a deploy still lazy-loads its chunks (a
 * language catalog) by their old names. Older ones go.
 */
function pruneOldAssets(current: Set<string>): void {
  const weekAgo = Date.now() - 7 * 86_400_000
  for (const file of readdirSync(assetsDir)) {
    const base = file.replace(/\.(gz|br|map)$/, '')
    const path = join(assetsDir, file)
    if (!current.has(base) && statSync(path).mtimeMs < weekAgo) rmSync(path, { force: true })
  }
}

export async function buildWeb(): Promise<{ manifest: WebManifest; milliseconds: number }> {
  const started = performance.now()
  mkdirSync(assetsDir, { recursive: true })
  const entrypoints = islandEntries()
  const result = await Bun.build({
    entrypoints,
    root: islandsDir,
    outdir: assetsDir,
    target: 'browser',
    format: 'esm',
    splitting: true,
    // Tiny chunks (modules shared by a few islands) fold into a chunk their pages load anyway: /login's
    // first load went from 20 files to 10, /tickets' from 31 to 17, no page 1 KB heavier. Over HTTP/1.1
    // (6 connections) every file is a request queued behind the others (bench/README.md, first-paint).
    minChunkSize: 16384,
    minify: true,
    sourcemap: 'external',
    metafile: true,
    // Without it the bundle ships development React.
    define: { 'process.env.NODE_ENV': '"production"' },
    naming: { entry: '[dir]-[hash].[ext]', chunk: '[name]-[hash].[ext]', asset: '[name]-[hash].[ext]' },
    plugins: [linguiMacroPlugin()],
  })
  if (!result.success || !result.metafile) {
    throw new AggregateError(result.logs, `web build failed:\n${result.logs.map((log) => String(log)).join('\n')}`)
  }
  const outputs = result.metafile.outputs
  // Metafile paths are relative: resolved alike, they serve as keys; /assets serves bare file names.
  const nameOf = (outputPath: string) => basename(outputPath)
  const outputByPath = new Map(Object.entries(outputs).map(([path, output]) => [resolve(path), { path, ...output }]))

  /** An entry's static imports, transitively: what the browser needs before the island runs. */
  const staticClosure = (outputPath: string, seen = new Set<string>()): Set<string> => {
    const output = outputByPath.get(resolve(outputPath))
    if (!output || seen.has(output.path)) return seen
    seen.add(output.path)
    for (const imported of output.imports) if (imported.kind === 'import-statement') staticClosure(imported.path, seen)
    return seen
  }

  const islands: WebManifest['islands'] = {}
  const catalogs: WebManifest['catalogs'] = {}
  for (const [path, output] of Object.entries(outputs)) {
    if (!output.entryPoint || !path.endsWith('.js')) continue
    const entry = resolve(output.entryPoint)
    const island = relative(islandsDir, entry).split(/[\\/]/)[0]
    if (entry.startsWith(islandsDir) && island) {
      const closure = [...staticClosure(path)]
      const css = closure.map((file) => outputByPath.get(resolve(file))?.cssBundle).filter((file): file is string => Boolean(file))
      islands[island] = { js: closure.map(nameOf), css: [...new Set(css.map(nameOf))] }
      continue
    }
    const language = languages.find((code) => entry === join(webRoot, 'i18n', 'locales', code, 'messages.ts'))
    if (language) catalogs[language] = nameOf(path)
  }
  // Hashed names: a file already compressed by an earlier build has the same content.
  for (const output of result.outputs) if (output.kind !== 'sourcemap') writeCompressed(output.path)
  pruneOldAssets(new Set(result.outputs.map((output) => basename(output.path))))

  const manifest: WebManifest = { sourceHash: sourceFingerprint(), builtAt: new Date().toISOString(), islands, catalogs }
  mkdirSync(distDir, { recursive: true })
  // Written last and renamed into place: a reader never sees a manifest naming files not yet written.
  const temporary = `${manifestPath}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(manifest, null, 2))
  renameSync(temporary, manifestPath)
  return { manifest, milliseconds: Math.round(performance.now() - started) }
}

/** What a first visit downloads per island, gzipped: its scripts (the default language's catalog included) and styles. */
export function firstLoadSizes(manifest: WebManifest): Record<string, { js: number; css: number }> {
  const gzipped = (file: string) => (existsSync(join(assetsDir, `${file}.gz`)) ? Bun.file(join(assetsDir, `${file}.gz`)).size : 0)
  const catalog = manifest.catalogs.en ? gzipped(manifest.catalogs.en) : 0
  return Object.fromEntries(
    Object.entries(manifest.islands).map(([island, assets]) => [
      island,
      { js: assets.js.reduce((total, file) => total + gzipped(file), catalog), css: assets.css.reduce((total, file) => total + gzipped(file), 0) },
    ]),
  )
}

if (import.meta.main) {
  const { manifest, milliseconds } = await buildWeb()
  console.log(`web build: ${Object.keys(manifest.islands).length} islands in ${milliseconds} ms -> ${relative(process.cwd(), distDir)}`)
  for (const [island, size] of Object.entries(firstLoadSizes(manifest))) {
    console.log(`  ${island.padEnd(10)} first load, gzip: js ${(size.js / 1024).toFixed(1)} KiB, css ${(size.css / 1024).toFixed(1)} KiB`)
  }
}
