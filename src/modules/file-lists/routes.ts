// /files (§7 "Files"): file lists, paged and searchable, one list, create, edit, delete, and the
// multi-file upload. Everyone of the company reads them (the chat input sends them); admins manage them.
import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { authorizeRequest, tenant } from '../../core/tenant.ts'
import { cappedUploadParser, MULTIPART_ENVELOPE_BYTES } from '../contacts/upload-body.ts'
import { CreateFileListBody, DeletedResponse, FileList, FileListPage, FileListSearchQuery, IdParams, MAX_FILES_PER_LIST, UpdateFileListBody, UploadListBody } from './model.ts'
import { createFileList, deleteFileList, listAllFileLists, listFileListPage, showFileList, updateFileList, uploadFileListFiles } from './service.ts'

const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true })

export const fileListRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/files', tags: ['Files'] })
    .use(tenant(deps))
    .get('', ({ caller, query }) => listFileListPage(deps, caller, query), {
      auth: true,
      query: FileListSearchQuery,
      response: { 200: FileListPage, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: { summary: 'File lists of the company, 20 per page by name, each with its files (options); searchParam matches the name; super users may pass companyId' },
    })
    .get('/list', ({ caller }) => listAllFileLists(deps, caller.companyId), {
      auth: true,
      response: { 200: t.Array(FileList) },
      detail: { summary: 'Every file list of the company with its files, for the chat input and the campaign dialog' },
    })
    .get('/:id', ({ caller, params }) => showFileList(deps, { companyId: caller.companyId, fileListId: params.id }), {
      auth: true,
      params: IdParams,
      response: { 200: FileList, 404: ErrorBody },
      detail: { summary: 'One file list with its files' },
    })
    .post('', ({ caller, body }) => createFileList(deps, caller.companyId, body), {
      auth: 'admin',
      body: CreateFileListBody,
      response: { 200: FileList, 403: ErrorBody, 422: ErrorBody },
      detail: { summary: 'Create a file list (name at least 3 characters, message required); add its files with POST /files/uploadList/{id}' },
    })
    .put('/:id', ({ caller, params, body }) => updateFileList(deps, { companyId: caller.companyId, fileListId: params.id }, body), {
      auth: 'admin',
      params: IdParams,
      body: UpdateFileListBody,
      response: { 200: FileList, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      detail: {
        summary: 'Edit a file list (only the fields sent change)',
        description: 'options, when sent, is the whole list of files to keep, each {id, name} (renamed); the files left out are removed from the list and from the disk.',
      },
    })
    .delete(
      '/:id',
      async ({ caller, params }) => {
        await deleteFileList(deps, { companyId: caller.companyId, fileListId: params.id })
        return { ok: true as const }
      },
      { auth: 'admin', params: IdParams, response: { 200: DeletedResponse, 403: ErrorBody, 404: ErrorBody }, detail: { summary: 'Delete a file list and its files' } },
    )
    .post('/uploadList/:id', ({ caller, params, body }) => uploadFileListFiles(deps, { companyId: caller.companyId, fileListId: params.id }, body), {
      auth: 'admin',
      params: IdParams,
      parse: cappedUploadParser(deps.config.media.maxBytes + MULTIPART_ENVELOPE_BYTES, { authorize: (request) => authorizeRequest(deps, request, 'admin') }),
      body: UploadListBody,
      response: { 200: FileList, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody },
      detail: {
        summary: `Add files to a file list (multipart: files, and per file name, mediaType, id; at most ${MAX_FILES_PER_LIST} files per list)`,
        description:
          'The whole body may be as large as MEDIA_MAX_BYTES plus 64 KiB (413 beyond); each file is checked by its bytes (415 for a type that cannot be sent). A file whose position in `id` names an option of the list replaces that option\'s file; the others are added. fileId and typeArch (sent by Whaticket clients) are accepted and not needed.',
      },
    })
