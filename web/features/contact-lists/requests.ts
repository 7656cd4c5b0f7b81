// The contact lists' calls that are not plain Eden calls: the sample spreadsheet (a download with the
// session) and the spreadsheet upload (multipart with progress).
import type { ListUploadResult } from '../../../src/modules/contact-lists/model.ts'
import { saveDownload } from '../../api/save-download.ts'
import { uploadWithProgress, type UploadOutcome } from '../../api/upload-with-progress.ts'

/** Resolves the error code when the server refused, undefined once the file is saved. */
export function downloadSample(): Promise<string | undefined> {
  return saveDownload('/api/contact-lists/sample', () => 'contact-list-sample.xlsx')
}

export function uploadListSpreadsheet(contactListId: number, file: File, onProgress: (fraction: number) => void): Promise<UploadOutcome<ListUploadResult>> {
  return uploadWithProgress<ListUploadResult>(
    `/api/contact-lists/${contactListId}/upload`,
    () => {
      const form = new FormData()
      form.append('file', file)
      return form
    },
    onProgress,
  )
}

/** §5 Import: contact-list items accept spreadsheets; the server reads .xlsx, an old .xls (Excel 97-2003) and .csv. */
export function isListSpreadsheetName(name: string): boolean {
  return /\.(xlsx|xls|csv)$/i.test(name.trim())
}
