// File lists (§7 "Files"): CRUD and the multi-file upload. Files are stored through core/storage
// (checked by their bytes, capped per file, unguessable names); a removed option's file is deleted
// once no row refers to it. What other modules may use (campaigns, the chat input) is here.
import { and, eq, inArray, notInArray } from 'drizzle-orm'
import { fileOptions, files } from '../../../db/schema/index.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField, isForeignKeyViolation } from '../../core/errors.ts'
import { removeUnreferencedMedia } from '../../core/storage/media-references.ts'
import { signMediaPath } from '../../core/storage/signed-url.ts'
import type { StoredMedia } from '../../core/storage/storage.ts'
import { storeUpload } from '../../core/storage/upload.ts'
import { type Caller, targetCompanyId } from '../../core/tenant.ts'
import { MAX_FILES_PER_LIST, type CreateFileListBody, type FileList, type FileListSearchQuery, type UpdateFileListBody, type UploadListBody } from './model.ts'
import { findAllFileListRows, findFileListNames, findFileListRow, findFileListRows, findOptionsOf, type FileListRow, type FileOptionRow } from './queries.ts'

export type { FileList, FileOption } from './model.ts'

function toFileLists(deps: Deps, rows: FileListRow[], options: FileOptionRow[]): FileList[] {
  const now = deps.now()
  return rows.map((row) => ({
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    message: row.message,
    options: options
      .filter((option) => option.fileId === row.id)
      .map((option) => ({
        id: option.id,
        fileId: option.fileId,
        name: option.name,
        path: option.path,
        mediaType: option.mediaType,
        mediaUrl: signMediaPath(deps.config.media, option.path, { now }),
      })),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }))
}

async function withOptions(deps: Deps, companyId: number, rows: FileListRow[]): Promise<FileList[]> {
  return toFileLists(deps, rows, await findOptionsOf(deps.db, { companyId, fileListIds: rows.map((row) => row.id) }))
}

function textOf(field: 'name' | 'message', raw: string, min: number): string {
  const value = raw.trim()
  if (value.length < min) throw invalidField(field, field === 'name' ? 'name is required, 3 to 100 characters' : 'message is required, up to 5000 characters')
  return value
}

export async function listFileListPage(deps: Deps, actor: Pick<Caller, 'companyId' | 'super'>, query: FileListSearchQuery) {
  const companyId = await targetCompanyId(deps.db, actor, query.companyId)
  const page = await findFileListRows(deps.db, { companyId, ...query })
  return { files: await withOptions(deps, companyId, page.rows), count: page.count, hasMore: page.hasMore }
}

/** Every list of the company with its files: the chat input's and the campaign dialog's choices. */
export async function listAllFileLists(deps: Deps, companyId: number): Promise<FileList[]> {
  return withOptions(deps, companyId, await findAllFileListRows(deps.db, companyId))
}

/** Id and name of the company's lists (those among `ids` when given), light: the campaign dialog's choices and a campaign's list. */
export async function nameFileLists(deps: Pick<Deps, 'db'>, scope: { companyId: number; ids?: number[] }): Promise<{ id: number; name: string }[]> {
  return findFileListNames(deps.db, { companyId: scope.companyId, ...(scope.ids ? { ids: [...new Set(scope.ids)] } : {}) })
}

/** One list with its files (404 ERR_NO_FILE_LIST_FOUND for another company's id). */
export async function showFileList(deps: Deps, scope: { companyId: number; fileListId: number }): Promise<FileList> {
  const row = await findFileListRow(deps.db, scope)
  if (!row) throw new AppError('ERR_NO_FILE_LIST_FOUND')
  const [list] = await withOptions(deps, scope.companyId, [row])
  return list!
}

export async function createFileList(deps: Deps, companyId: number, input: CreateFileListBody): Promise<FileList> {
  const [created] = await deps.db
    .insert(files)
    .values({ companyId, name: textOf('name', input.name, 3), message: textOf('message', input.message, 1) })
    .returning({ id: files.id })
  const fileList = await showFileList(deps, { companyId, fileListId: created!.id })
  deps.bus.emit('file_list.changed', { companyId, fileListId: fileList.id, action: 'create', fileList })
  return fileList
}

export async function updateFileList(deps: Deps, scope: { companyId: number; fileListId: number }, input: UpdateFileListBody): Promise<FileList> {
  const { companyId, fileListId } = scope
  const before = await showFileList(deps, scope)
  const removedPaths: string[] = []
  await deps.db.transaction(async (tx) => {
    const changes = {
      name: input.name === undefined ? undefined : textOf('name', input.name, 3),
      message: input.message === undefined ? undefined : textOf('message', input.message, 1),
      // Touched even when only options change, so updatedAt says the list changed.
      updatedAt: deps.now(),
    }
    await tx
      .update(files)
      .set(changes)
      .where(and(eq(files.companyId, companyId), eq(files.id, fileListId)))
    if (!input.options) return
    const own = new Set(before.options.map((option) => option.id))
    const kept = input.options.filter((option) => own.has(option.id))
    for (const option of kept) {
      await tx
        .update(fileOptions)
        .set({ name: option.name.trim() || 'file' })
        .where(and(eq(fileOptions.companyId, companyId), eq(fileOptions.fileId, fileListId), eq(fileOptions.id, option.id)))
    }
    const keptIds = kept.map((option) => option.id)
    const removed = await tx
      .delete(fileOptions)
      .where(and(eq(fileOptions.companyId, companyId), eq(fileOptions.fileId, fileListId), keptIds.length > 0 ? notInArray(fileOptions.id, keptIds) : undefined))
      .returning({ path: fileOptions.path })
    removedPaths.push(...removed.map((row) => row.path))
  })
  await removeUnreferencedMedia(deps, companyId, removedPaths)
  const fileList = await showFileList(deps, scope)
  deps.bus.emit('file_list.changed', { companyId, fileListId, action: 'update', fileList })
  return fileList
}

export async function deleteFileList(deps: Deps, scope: { companyId: number; fileListId: number }): Promise<void> {
  const { companyId, fileListId } = scope
  const paths = await deps.db.transaction(async (tx) => {
    const options = await tx
      .delete(fileOptions)
      .where(and(eq(fileOptions.companyId, companyId), eq(fileOptions.fileId, fileListId)))
      .returning({ path: fileOptions.path })
    const deleted = await tx
      .delete(files)
      .where(and(eq(files.companyId, companyId), eq(files.id, fileListId)))
      .returning({ id: files.id })
    if (deleted.length === 0) throw new AppError('ERR_NO_FILE_LIST_FOUND')
    return options.map((option) => option.path)
  })
  await removeUnreferencedMedia(deps, companyId, paths)
  deps.bus.emit('file_list.changed', { companyId, fileListId, action: 'delete' })
}

const many = <Value>(value: Value | Value[] | undefined): Value[] => (value === undefined ? [] : Array.isArray(value) ? value : [value])

/**
 * POST /files/uploadList/{id}: each file becomes an option of the list, or replaces the file of the
 * option named at its position in `id`. Each file is checked and capped by core/storage (the whole
 * body by the route's parser); a failure stores nothing of the request.
 */
export async function uploadFileListFiles(deps: Deps, scope: { companyId: number; fileListId: number }, input: UploadListBody): Promise<FileList> {
  const { companyId, fileListId } = scope
  const before = await showFileList(deps, scope)
  const uploads = many(input.files)
  const names = many(input.name)
  const optionIds = many(input.id).map((value) => (value === '' ? undefined : Number(value)))
  const own = new Map(before.options.map((option) => [option.id, option]))
  for (const optionId of optionIds) if (optionId !== undefined && !own.has(optionId)) throw invalidField('id', 'id names an option of another list')
  const added = uploads.filter((_, index) => optionIds[index] === undefined).length
  if (before.options.length + added > MAX_FILES_PER_LIST) throw invalidField('files', `a list holds at most ${MAX_FILES_PER_LIST} files`)

  const stored: StoredMedia[] = []
  try {
    for (const file of uploads) stored.push(await storeUpload(deps.storage, deps.config.media, { companyId, file, purpose: 'message' }))
  } catch (error) {
    for (const media of stored) await deps.storage.remove(media.path)
    throw error
  }
  const replacedPaths: string[] = []
  const write = deps.db.transaction(async (tx) => {
    for (const [index, media] of stored.entries()) {
      const name = names[index]?.trim() || media.name
      const optionId = optionIds[index]
      if (optionId === undefined) {
        await tx.insert(fileOptions).values({ companyId, fileId: fileListId, name, path: media.path, mediaType: media.mediaType })
        continue
      }
      replacedPaths.push(own.get(optionId)!.path)
      await tx
        .update(fileOptions)
        .set({ name, path: media.path, mediaType: media.mediaType })
        .where(and(eq(fileOptions.companyId, companyId), eq(fileOptions.fileId, fileListId), inArray(fileOptions.id, [optionId])))
    }
    await tx
      .update(files)
      .set({ updatedAt: deps.now() })
      .where(and(eq(files.companyId, companyId), eq(files.id, fileListId)))
  })
  try {
    await write
  } catch (error) {
    for (const media of stored) await deps.storage.remove(media.path)
    // The list was deleted while its files were being stored.
    if (isForeignKeyViolation(error)) throw new AppError('ERR_NO_FILE_LIST_FOUND')
    throw error
  }
  await removeUnreferencedMedia(deps, companyId, replacedPaths)
  const fileList = await showFileList(deps, scope)
  deps.bus.emit('file_list.changed', { companyId, fileListId, action: 'update', fileList })
  return fileList
}
