// The web pages: each route of web/routes.ts answers with its island's HTML shell, /assets/* serves the
// build, /favicon.svg the icon, and / is the dashboard (its island sends a non-admin on to the inbox). Redirects
// between public and private pages happen in the browser: the access token lives only in memory there.
// The build is made on first use when dist/web is missing or stale, so a fresh clone starts without
// the prestart step.
import { Elysia } from 'elysia'
import { join } from 'node:path'
import { ensureWebBuild, readManifest, sourceFingerprint, webRoot, type WebManifest } from '../../web/build-manifest.ts'
import { pageRoutes, type IslandName } from '../../web/routes.ts'
import type { Deps } from '../modules/deps.ts'
import { assetResponse } from './assets.ts'
import { renderShell, type Shell } from './html-shell.ts'

const notFound = () =>
  new Response(JSON.stringify({ error: 'ERR_NOT_FOUND' }), { status: 404, headers: { 'content-type': 'application/json; charset=utf-8' } })

function securityHeaders(shell: Shell): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    // The shell names hashed assets: always revalidate it, so a deploy is picked up at once.
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
    // Scripts only from here, plus the one inline theme script by its hash. Images and media may come
    // from WhatsApp's servers (profile pictures) and blob: URLs (recorded audio, previews).
    'content-security-policy': [
      "default-src 'self'",
      `script-src 'self' 'sha256-${shell.scriptHash}'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https:",
      "media-src 'self' blob: https:",
      "connect-src 'self'",
      "font-src 'self'",
      // The help videos' player (privacy-enhanced YouTube), nothing else.
      "frame-src https://www.youtube-nocookie.com",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
  }
}

/**
 * ensureWebBuild, with the build itself (dist/web missing, or its sources changed) made by a child
 * process: Bun.build with the lingui plugin leaves some 600 MB resident in the process that ran it,
 * which a server would keep for its whole life (bench/idle-memory.ts measured 783 MB idle on PGlite
 * after a build in the server, 217 MB without). The child takes the same build lock.
 */
export async function ensureWebBuildAside(): Promise<Awaited<ReturnType<typeof ensureWebBuild>>> {
  const existing = readManifest()
  const fingerprint = sourceFingerprint()
  if (existing && (fingerprint === '' || fingerprint === existing.sourceHash)) return ensureWebBuild()
  const started = performance.now()
  const script = `await (await import(${JSON.stringify(join(webRoot, 'build-manifest.ts'))})).ensureWebBuild()`
  const child = Bun.spawn([process.execPath, '-e', script], { cwd: join(webRoot, '..'), stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' })
  const [code, errors] = await Promise.all([child.exited, new Response(child.stderr).text()])
  if (code !== 0) throw new Error(`the web build failed (exit ${code}): ${errors.trim().slice(-2000)}`)
  const { manifest } = await ensureWebBuild()
  return { manifest, built: { milliseconds: Math.round(performance.now() - started) } }
}

export const webPages = (deps: Deps) => {
  let ready: Promise<Map<IslandName, Shell>> | undefined

  const shells = () => {
    ready ??= ensureWebBuildAside()
      .then(({ manifest, built }) => {
        if (built) deps.logger.info('web pages built', { milliseconds: built.milliseconds, islands: Object.keys(manifest.islands).length })
        return shellsOf(manifest)
      })
      .catch((error: unknown) => {
        ready = undefined
        deps.logger.error('web pages could not be built', { error })
        throw error
      })
    return ready
  }

  const page = (island: IslandName) => async () => {
    const shell = (await shells().catch(() => undefined))?.get(island)
    if (!shell) return new Response('The web interface is not available: its build failed (see the server log).', { status: 503 })
    return new Response(shell.html, { headers: securityHeaders(shell) })
  }

  const plugin = new Elysia({ name: 'web-pages' })
    // Built (when needed) as the server starts, not on the first visitor's time.
    .onStart(() => {
      void shells().catch(() => undefined)
    })
    .get(
      '/assets/:file',
      async ({ params, request }) => {
        await shells().catch(() => undefined)
        return assetResponse(params.file, request.headers.get('accept-encoding'), { sourceMaps: deps.config.development }) ?? notFound()
      },
      { detail: { hide: true } },
    )
    .get(
      '/favicon.svg',
      () => new Response(Bun.file(join(webRoot, 'public', 'favicon.svg')), { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' } }),
      { detail: { hide: true } },
    )
  // Routes added in a loop register on the instance; the typed API (Eden) does not need to know them.
  for (const route of pageRoutes) plugin.get(route.path, page(route.island), { detail: { hide: true } })
  return plugin
}

function shellsOf(manifest: WebManifest): Map<IslandName, Shell> {
  const shells = new Map<IslandName, Shell>()
  for (const [island, assets] of Object.entries(manifest.islands)) shells.set(island as IslandName, renderShell(assets, manifest.catalogs))
  return shells
}
