// A file the API streams (an export), saved by the browser: fetched with the session (bearer token,
// refresh on expiry) because a plain link cannot carry the token, then handed to a temporary blob link.
import { sessionFetch } from './session.ts'

/**
 * Resolves the error code when the server refused (ERR_*, or HTTP_<status>), undefined once the file
 * is saved under the name fileNameOf picks from the Content-Disposition header.
 */
export async function saveDownload(path: string, fileNameOf: (contentDisposition: string | null) => string): Promise<string | undefined> {
  let response: Response
  try {
    response = await sessionFetch(path)
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
  link.download = fileNameOf(response.headers.get('content-disposition'))
  document.body.append(link)
  link.click()
  link.remove()
  // The click has handed the blob to the download; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0)
  return undefined
}
