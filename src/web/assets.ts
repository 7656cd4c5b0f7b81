// The built files under /assets: hashed names, so cached for a year and never revalidated; served
// precompressed (brotli or gzip, written by the build) when the browser accepts it.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { assetsDir } from '../../web/build-manifest.ts'

const contentTypes: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  woff2: 'font/woff2',
  mp3: 'audio/mpeg',
}

/** Flat hashed names only: no directories, no dot files, nothing that could climb out of the folder. */
const safeName = /^[\w-]+(\.[\w-]+)*\.[a-z0-9]+$/

export const IMMUTABLE = 'public, max-age=31536000, immutable'

/** Source maps (the whole readable source) are served only in development (NODE_ENV=development). */
export function assetResponse(file: string, acceptEncoding: string | null, options: { sourceMaps: boolean } = { sourceMaps: false }): Response | undefined {
  if (!safeName.test(file)) return undefined
  const extension = file.slice(file.lastIndexOf('.') + 1)
  if (extension === 'map' && !options.sourceMaps) return undefined
  const type = contentTypes[extension]
  const path = join(assetsDir, file)
  if (!type || !existsSync(path)) return undefined
  const headers: Record<string, string> = { 'content-type': type, 'cache-control': IMMUTABLE, vary: 'accept-encoding', 'x-content-type-options': 'nosniff' }
  const accepted = acceptEncoding ?? ''
  for (const [encoding, suffix] of [['br', '.br'], ['gzip', '.gz']] as const) {
    if (accepted.includes(encoding) && existsSync(path + suffix)) {
      return new Response(Bun.file(path + suffix), { headers: { ...headers, 'content-encoding': encoding } })
    }
  }
  return new Response(Bun.file(path), { headers })
}
