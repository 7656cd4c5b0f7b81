// GET /api/contacts/:id/data-export (a data-subject access request, admins) saved as a .zip: fetched
// with the session because a plain link cannot carry the token, then handed to a temporary blob link.
import { sessionFetch } from '../../api/session.ts'

/** Resolves the error code when the server refused (ERR_*), undefined once the file is saved. */
export async function downloadContactData(contactId: number): Promise<string | undefined> {
  let response: Response
  try {
    response = await sessionFetch(`/api/contacts/${contactId}/data-export`)
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
  link.download = /filename="([^"]+)"/i.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `contact-${contactId}.zip`
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
  return undefined
}
