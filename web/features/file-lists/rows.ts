// A file list as the page holds it: the API's FileList without the timestamps (JSON strings on the wire).
import type { FileList } from '../../../src/modules/file-lists/model.ts'

export type FileListRow = Omit<FileList, 'createdAt' | 'updatedAt'>

/** Files one list may hold (the server refuses more). */
export { MAX_FILES_PER_LIST } from '../../../src/modules/file-lists/model.ts'
