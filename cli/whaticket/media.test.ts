// The media copier reads only inside the --media folder, finds Atendechat's company{id}/ layout, and
// reports what it cannot copy instead of failing the import.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MediaStorage, SaveMediaStreamInput } from '../../src/core/storage/storage.ts'
import { MediaTooLarge } from '../../src/core/storage/storage.ts'
import { createMediaCopier } from './media.ts'
import { createReport } from './report.ts'

const root = mkdtempSync(join(tmpdir(), 'whaticket-media-test-'))
const folder = join(root, 'public')
mkdirSync(join(folder, 'company7'), { recursive: true })
writeFileSync(join(folder, 'flat.pdf'), 'pdf')
writeFileSync(join(folder, 'company7', 'nested.jpg'), 'jpg')
writeFileSync(join(root, 'secret.txt'), 'outside the folder')
afterAll(() => rmSync(root, { recursive: true, force: true }))

function copierWith(maxBytes = 1_000) {
  const saved: string[] = []
  const storage = {
    async saveStream(input: SaveMediaStreamInput) {
      let size = 0
      for await (const chunk of input.source as AsyncIterable<Uint8Array>) size += chunk.byteLength
      if (size > input.maxBytes) throw new MediaTooLarge(input.maxBytes)
      saved.push(input.originalName)
      return { path: `${input.companyId}/2026-11/abc-${input.originalName}`, name: input.originalName, mimetype: 'application/octet-stream', size, mediaType: 'application' as const }
    },
  } as unknown as MediaStorage
  const report = createReport({ source: 'test', dryRun: false, companies: [7] })
  const copier = createMediaCopier({ folder, storage, maxBytes, dryRun: false, report })
  const copy = (reference: string) => copier.copy({ entity: 'Messages', sourceId: 'M1', reference, sourceCompanyId: 7, companyId: 3 })
  return { copy, saved, report: report.report }
}

describe('Whaticket media copier', () => {
  test('finds a file at the top of the folder, under company{id}/, and behind a whole URL', async () => {
    const { copy, saved, report } = await copierWith()
    expect(await copy('flat.pdf')).toEqual({ path: '3/2026-11/abc-flat.pdf', name: 'flat.pdf' })
    expect((await copy('nested.jpg'))?.name).toBe('nested.jpg')
    expect((await copy('https://old.example.com/public/company7/nested.jpg?x=1'))?.name).toBe('nested.jpg')
    expect(saved).toEqual(['flat.pdf', 'nested.jpg', 'nested.jpg'])
    expect(report.media).toEqual({ copied: 3, missing: 0 })
  })

  test('never reads outside the folder; a missing or too large file is reported, not thrown', async () => {
    const { copy, saved, report } = await copierWith(2)
    expect(await copy('../secret.txt')).toBeUndefined()
    expect(await copy('company7/../../secret.txt')).toBeUndefined()
    expect(await copy('gone.ogg')).toBeUndefined()
    expect(await copy('flat.pdf')).toBeUndefined()
    expect(saved).toEqual([])
    expect(report.media).toEqual({ copied: 0, missing: 4 })
    expect(report.issues.map((issue) => issue.reason)).toEqual(['MEDIA_MISSING', 'MEDIA_MISSING', 'MEDIA_MISSING', 'MEDIA_TOO_LARGE'])
  })
})
