// GET /api/contacts/:id/data-export (a data-subject access request, admins) saved as a .zip
// (web/api/save-download.ts).
import { saveDownload } from '../../api/save-download.ts'

/** Resolves the error code when the server refused (ERR_*), undefined once the file is saved. */
export function downloadContactData(contactId: number): Promise<string | undefined> {
  return saveDownload(`/api/contacts/${contactId}/data-export`, (disposition) => /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? `contact-${contactId}.zip`)
}
