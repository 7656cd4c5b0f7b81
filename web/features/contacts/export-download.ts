// GET /api/contacts/export as a file the browser saves: fetched with the session (bearer token, refresh
// on expiry) because a plain link cannot carry the token, then handed to a temporary blob link.
import { sessionFetch } from '../../api/session.ts'
import { fileNameOf, type ExportFormat } from './export-file.ts'

/** Resolves the error code when the server refused (ERR_*), undefined once the file is saved. */
export async function downloadContacts(format: ExportFormat, searchParam: string): Promise<string | undefined> {
  const query = new URLSearchParams({ format, ...(searchParam ? { searchParam } : {}) })
  let response: Response
  try {
    response = await sessionFetch(`/api/contacts/export?${query}`)
  } catch {
    return 'ERR_NETWORK'
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: unknown } | null
    return typeof body?.error === 'string' ? body.error : `HTTP_${response.status}`
  }
  const blob = await response.blob()
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileNameOf(response.headers.get('content-disposition'), format)
  document.body.append(link)
  link.click()
  link.remove()
  // The click has handed the blob to the download; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0)
  return undefined
}
