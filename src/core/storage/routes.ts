// GET /public/{path}: media and announcement images (§7), reachable only through a signed link, but
// for an active announcement's image (media-references.ts, isActiveAnnouncementImage).
// Mounted on the root app, not under /api, because the spec serves media at /public/{path}.
import { Elysia, t } from 'elysia'
import type { CoreDeps } from '../deps.ts'
import { AppError } from '../errors.ts'
import { isActiveAnnouncementImage, isMediaPathLive } from './media-references.ts'
import { mediaResponse } from './media-response.ts'
import { verifyMediaSignature } from './signed-url.ts'
import type { MediaStorage } from './storage.ts'

const ErrorBody = t.Object({ error: t.String() })
/** How long a browser may keep an unsigned announcement image: one deactivated stops being served soon after. */
const ANNOUNCEMENT_IMAGE_CACHE_SECONDS = 300

/** The wildcard as written in the URL, decoded; undefined for a malformed escape. */
function decodedPath(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

export const publicMediaRoutes = (deps: CoreDeps, storage: MediaStorage) =>
  new Elysia({ name: 'public-media', tags: ['Media'] }).get(
    '/public/*',
    async ({ params, query, request }) => {
      const path = decodedPath(params['*'])
      if (path === undefined) throw new AppError('ERR_NOT_FOUND')
      const unsigned = query.exp === undefined && query.sig === undefined
      if (unsigned && (await isActiveAnnouncementImage(deps.db, path))) {
        const file = await storage.read(path)
        if (!file) throw new AppError('ERR_NOT_FOUND')
        return mediaResponse(file, { path, remainingSeconds: ANNOUNCEMENT_IMAGE_CACHE_SECONDS, range: request.headers.get('range') })
      }
      const check = verifyMediaSignature(deps.config.media, path, query.exp, query.sig, deps.now())
      if (!check.valid) throw new AppError('ERR_NO_PERMISSION')
      // A link dies with its row: a deleted message's (or ticket's, contact's) file is not served.
      if (!(await isMediaPathLive(deps.db, path))) throw new AppError('ERR_NOT_FOUND')
      const file = await storage.read(path)
      // A traversal attempt reads as a missing file: nothing tells it apart.
      if (!file) throw new AppError('ERR_NOT_FOUND')
      return mediaResponse(file, { path, remainingSeconds: check.remainingSeconds, range: request.headers.get('range') })
    },
    {
      query: t.Object({
        exp: t.Optional(t.String({ description: 'Expiry, in Unix seconds' })),
        sig: t.Optional(t.String({ description: 'base64url HMAC-SHA256 of "path:exp"' })),
      }),
      response: {
        200: t.File({ description: 'The file: images, audio and video inline, anything else as a download' }),
        206: t.File({ description: 'A byte range of the file' }),
        403: ErrorBody,
        404: ErrorBody,
        416: t.Void(),
      },
      detail: {
        summary: 'A stored media file, through the signed link the API returned (mediaUrl); an active announcement\'s image also at its bare mediaPath',
        description:
          'A link dies with the row that holds its file: once the message is deleted for everyone, or its ticket or contact deleted, the answer is 404 (and the file is erased).',
        security: [],
      },
    },
  )
