// A file list as the page holds it: the API's FileList without the timestamps (JSON strings on the wire).
import type { FileList } from '../../../src/modules/file-lists/model.ts'

export type FileListRow = Omit<FileList, 'createdAt' | 'updatedAt'>

/**
 * Files one list may hold, from the shared contract: importing it from src/modules/file-lists/model.ts
 * brought Elysia and TypeBox into the /files page (+47 KB brotli).
 */
export { MAX_FILES_PER_LIST } from '../../../src/contracts/file-lists.ts'
