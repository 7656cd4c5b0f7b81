// GET /api/contacts/export as a file the browser saves (web/api/save-download.ts).
import { saveDownload } from '../../api/save-download.ts'
import { fileNameOf, type ExportFormat } from './export-file.ts'

/** Resolves the error code when the server refused (ERR_*), undefined once the file is saved. */
export function downloadContacts(format: ExportFormat, searchParam: string): Promise<string | undefined> {
  const query = new URLSearchParams({ format, ...(searchParam ? { searchParam } : {}) })
  return saveDownload(`/api/contacts/export?${query}`, (disposition) => fileNameOf(disposition, format))
}
