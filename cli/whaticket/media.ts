// Media files of the source: Whaticket keeps them in its backend's public/ folder and the rows name
// them (Messages.mediaUrl, QuickMessages.mediaPath, Schedules.mediaPath), sometimes under a
// company{id}/ sub-folder. Each is copied into our storage, streamed with the upload cap; a file that is
// missing or too large is reported and its row is imported without it.
import { basename, resolve, sep } from 'node:path'
import type { MediaStorage } from '../../src/core/storage/storage.ts'
import { MediaTooLarge } from '../../src/core/storage/storage.ts'
import type { ReportBuilder } from './report.ts'

export type CopiedMedia = { path: string; name: string }

export type MediaCopier = {
  /** Our stored file for the source file `reference` of a source company, or undefined (reported). */
  copy(input: { entity: string; sourceId: string; reference: string; sourceCompanyId: number; companyId: number }): Promise<CopiedMedia | undefined>
}

/** The file name a reference ends with: some installations store a whole URL. */
function fileNameOf(reference: string): string {
  const withoutQuery = reference.split('?')[0]!
  return decodeURIComponent(withoutQuery.includes('://') ? basename(new URL(withoutQuery).pathname) : withoutQuery)
}

export function createMediaCopier(input: { folder?: string; storage: MediaStorage; maxBytes: number; dryRun: boolean; report: ReportBuilder }): MediaCopier {
  const root = input.folder ? resolve(input.folder) : undefined
  /** Inside the folder only: a reference with ../ in it does not reach the rest of the disk. */
  const inside = (path: string) => (root && (path === root || path.startsWith(root + sep)) ? path : undefined)

  async function locate(reference: string, sourceCompanyId: number): Promise<string | undefined> {
    if (!root) return undefined
    const relative = fileNameOf(reference).replace(/^\/+/, '')
    for (const candidate of [resolve(root, relative), resolve(root, `company${sourceCompanyId}`, relative)]) {
      const path = inside(candidate)
      if (path && (await Bun.file(path).exists())) return path
    }
    return undefined
  }

  return {
    async copy({ entity, sourceId, reference, sourceCompanyId, companyId }) {
      const path = await locate(reference, sourceCompanyId)
      if (!path) {
        input.report.report.media.missing += 1
        const why = root ? `not found in ${root}` : 'no --media folder given'
        input.report.issue(entity, sourceId, 'MEDIA_MISSING', `${fileNameOf(reference)}: ${why}; imported without the file`)
        return undefined
      }
      const name = basename(path)
      if (input.dryRun) {
        input.report.report.media.copied += 1
        return { path: `dry-run/${name}`, name }
      }
      try {
        const stored = await input.storage.saveStream({ companyId, originalName: name, source: Bun.file(path).stream(), maxBytes: input.maxBytes })
        input.report.report.media.copied += 1
        return { path: stored.path, name: stored.name }
      } catch (error) {
        if (!(error instanceof MediaTooLarge)) throw error
        input.report.report.media.missing += 1
        input.report.issue(entity, sourceId, 'MEDIA_TOO_LARGE', `${name}: larger than MEDIA_MAX_BYTES (${input.maxBytes}); imported without the file`)
        return undefined
      }
    },
  }
}
