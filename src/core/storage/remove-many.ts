// Removing the media files of rows already deleted (erasure, retention). The rows go first, then the
// files: a signed link handed out earlier dies with the row, and a file that fails to go is logged
// and counted, never a reason to bring the rows back.
import type { MediaStorage } from './storage.ts'

export type RemovedFiles = { removed: number; failed: number }

/** Removes each distinct path (nulls skipped), a few at a time; never throws. */
export async function removeManyMedia(storage: MediaStorage, paths: ReadonlyArray<string | null | undefined>, onError?: (path: string, error: unknown) => void): Promise<RemovedFiles> {
  const distinct = [...new Set(paths.filter((path): path is string => typeof path === 'string' && path !== ''))]
  const result: RemovedFiles = { removed: 0, failed: 0 }
  const parallel = 8
  for (let start = 0; start < distinct.length; start += parallel) {
    await Promise.all(
      distinct.slice(start, start + parallel).map(async (path) => {
        try {
          await storage.remove(path)
          result.removed += 1
        } catch (error) {
          result.failed += 1
          onError?.(path, error)
        }
      }),
    )
  }
  return result
}
