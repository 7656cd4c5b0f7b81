// Where the web build lives, what its manifest says, and "build it if missing or stale": used by the
// server at start (so a fresh clone works without the prestart step) and by the browser tests.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const webRoot = import.meta.dir
export const distDir = join(webRoot, '..', 'dist', 'web')
export const assetsDir = join(distDir, 'assets')
export const manifestPath = join(distDir, 'manifest.json')
const lockPath = join(distDir, 'build.lock')

export type IslandAssets = { js: string[]; css: string[] }
export type WebManifest = {
  /** Hash of the web sources the build came from: a different hash means the build is stale. */
  sourceHash: string
  builtAt: string
  islands: Record<string, IslandAssets>
  /** Language code -> the catalog chunk, preloaded for the stored language. */
  catalogs: Record<string, string>
}

function listFiles(directory: string): string[] {
  if (!existsSync(directory)) return []
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return listFiles(path)
    return /\.(tsx?|css|svg|po)$/.test(entry.name) && !entry.name.includes('.test.') ? [path] : []
  })
}

/** The web sources plus the versions that shape the output. Empty string when the sources are absent. */
export function sourceFingerprint(): string {
  const files = listFiles(webRoot).sort()
  if (files.length === 0) return ''
  const hash = createHash('sha256').update(Bun.version)
  for (const file of [...files, join(webRoot, '..', 'lingui.config.ts'), join(webRoot, '..', 'package.json')]) {
    if (existsSync(file)) hash.update(file.slice(webRoot.length)).update(readFileSync(file))
  }
  return hash.digest('hex').slice(0, 16)
}

export function readManifest(): WebManifest | undefined {
  try {
    return JSON.parse(readFileSync(manifestPath, 'utf8')) as WebManifest
  } catch {
    return undefined
  }
}

function isStale(manifest: WebManifest | undefined): boolean {
  if (!manifest) return true
  const current = sourceFingerprint()
  // Without sources (an image that ships only dist/) the build on disk is the one to serve.
  return current !== '' && current !== manifest.sourceHash
}

function lockHolder(): { pid: number; ageMs: number } | undefined {
  try {
    return { pid: Number(readFileSync(lockPath, 'utf8').trim()), ageMs: Date.now() - statSync(lockPath).mtimeMs }
  } catch {
    return undefined
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** One build at a time across processes (parallel test workers, several instances starting together). */
async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  mkdirSync(distDir, { recursive: true })
  const deadline = Date.now() + 120_000
  for (;;) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' })
      break
    } catch {
      const holder = lockHolder()
      if (!holder) continue
      // A lock left by a process that died mid-build is taken over.
      const dead = Number.isInteger(holder.pid) && holder.pid > 0 && !processAlive(holder.pid)
      if (dead || holder.ageMs > 120_000) rmSync(lockPath, { force: true })
      else if (Date.now() > deadline) throw new Error('timed out waiting for another web build')
      else await Bun.sleep(100)
    }
  }
  try {
    return await work()
  } finally {
    rmSync(lockPath, { force: true })
  }
}

/**
 * The manifest of an up-to-date build, building first when it is missing or its sources changed.
 * `built` says whether this call built, with how long it took.
 */
export async function ensureWebBuild(): Promise<{ manifest: WebManifest; built?: { milliseconds: number } }> {
  const existing = readManifest()
  if (!isStale(existing)) return { manifest: existing! }
  return withBuildLock(async () => {
    // Another process may have built while this one waited for the lock.
    const again = readManifest()
    if (!isStale(again)) return { manifest: again! }
    const { buildWeb } = await import('./build.ts')
    const { manifest, milliseconds } = await buildWeb()
    return { manifest, built: { milliseconds } }
  })
}
