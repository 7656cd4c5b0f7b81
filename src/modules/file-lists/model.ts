// File lists (§3 "File list", §5, §7 "Files"): a named set of files with a message, which campaigns
// attach and the chat input sends in one go.
import { t } from 'elysia'
import { PageQuery, positiveId } from '../../core/schemas.ts'
import { MAX_FILES_PER_LIST } from '../../contracts/file-lists.ts'

export { IdParams } from '../../core/schemas.ts'

/** Files one list may hold, and one upload may add (a shared contract: the web's dialog checks it too). */
export { MAX_FILES_PER_LIST }

export const FileOption = t.Object({
  id: t.Integer(),
  fileId: t.Integer(),
  /** The name shown (the uploaded file's name unless one was given). */
  name: t.String(),
  /** Where the file is stored (relative to the media root). */
  path: t.String(),
  /** image, audio, video or application: from the file's bytes, not from what the client said. */
  mediaType: t.String(),
  /** A signed, expiring link to the file (GET /public/...). */
  mediaUrl: t.String(),
})
export type FileOption = typeof FileOption.static

export const FileList = t.Object({
  id: t.Integer(),
  companyId: t.Integer(),
  name: t.String(),
  message: t.String(),
  options: t.Array(FileOption),
  createdAt: t.Date(),
  updatedAt: t.Date(),
})
export type FileList = typeof FileList.static

export const FileListSearchQuery = t.Object({
  ...PageQuery,
  /** Campaign lookups name the company (§7); only super users may name another. */
  companyId: t.Optional(positiveId('companyId')),
})
export type FileListSearchQuery = typeof FileListSearchQuery.static

export const FileListPage = t.Object({ files: t.Array(FileList), count: t.Integer(), hasMore: t.Boolean() })

const name = t.String({ minLength: 3, maxLength: 100, error: 'name is required, 3 to 100 characters' })
const message = t.String({ minLength: 1, maxLength: 5000, error: 'message is required, up to 5000 characters' })

export const CreateFileListBody = t.Object({ name, message })
export type CreateFileListBody = typeof CreateFileListBody.static

/** Only the fields sent change. options, when sent, is the whole list: options left out are removed (with their files). */
export const UpdateFileListBody = t.Object({
  name: t.Optional(name),
  message: t.Optional(message),
  options: t.Optional(
    t.Array(t.Object({ id: positiveId('options.id'), name: t.String({ minLength: 1, maxLength: 200, error: 'an option name is 1 to 200 characters' }) }), {
      maxItems: MAX_FILES_PER_LIST,
    }),
  ),
})
export type UpdateFileListBody = typeof UpdateFileListBody.static

const oneOrMany = <Schema extends ReturnType<typeof t.String>>(schema: Schema) => t.Optional(t.Union([schema, t.Array(schema, { maxItems: MAX_FILES_PER_LIST })]))

/** POST /files/uploadList/{id}: the Whaticket client's form (fileId, typeArch, files, mediaType, name, id). */
export const UploadListBody = t.Object({
  files: t.Union([t.File(), t.Array(t.File(), { minItems: 1, maxItems: MAX_FILES_PER_LIST })], { error: `files is required: 1 to ${MAX_FILES_PER_LIST} files` }),
  /** A name per file, in the order of files (the file's own name when absent). */
  name: oneOrMany(t.String({ maxLength: 200 })),
  /** Per file, what the client thinks it is; the stored mediaType comes from the bytes. */
  mediaType: oneOrMany(t.String({ maxLength: 50 })),
  /** Per file, an option of this list whose file it replaces ('' or absent: a new option). */
  id: oneOrMany(t.String({ maxLength: 12, pattern: '^[0-9]*$' })),
  fileId: t.Optional(t.String({ maxLength: 12 })),
  typeArch: t.Optional(t.String({ maxLength: 50 })),
})
export type UploadListBody = typeof UploadListBody.static

export const DeletedResponse = t.Object({ ok: t.Literal(true) })
