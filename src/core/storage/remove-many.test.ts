import { expect, test } from 'bun:test'
import { removeManyMedia } from './remove-many.ts'
import type { MediaStorage } from './storage.ts'

test('removes each distinct path once, skips nulls, counts failures without throwing', async () => {
  const removed: string[] = []
  const storage: MediaStorage = {
    save: () => Promise.reject(new Error('unused')),
    read: () => Promise.resolve(undefined),
    remove: async (path) => {
      if (path === 'broken') throw new Error('EACCES')
      removed.push(path)
    },
  }
  const failures: string[] = []
  const result = await removeManyMedia(storage, ['a', null, 'b', 'a', undefined, '', 'broken'], (path) => failures.push(path))
  expect(result).toEqual({ removed: 2, failed: 1 })
  expect(removed.sort()).toEqual(['a', 'b'])
  expect(failures).toEqual(['broken'])
})
