// POST /api/contacts/upload with the spreadsheet as multipart, with upload progress (api/upload-with-progress.ts).
import type { UploadResult } from '../../../src/modules/contacts/model.ts'
import { uploadWithProgress, type UploadOutcome as Outcome } from '../../api/upload-with-progress.ts'

/** The JSON answer: dates arrive as strings. */
export type UploadAnswer = Omit<UploadResult, 'newContacts'> & { newContacts: { id: number }[] }

export type UploadOutcome = Outcome<UploadAnswer>

export function uploadSpreadsheet(file: File, onProgress: (fraction: number) => void): Promise<UploadOutcome> {
  return uploadWithProgress<UploadAnswer>(
    '/api/contacts/upload',
    () => {
      const form = new FormData()
      form.append('file', file)
      return form
    },
    onProgress,
  )
}
