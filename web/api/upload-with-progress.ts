// A multipart POST through XMLHttpRequest: fetch reports no upload progress, XHR's upload events do.
// It carries the session's bearer token (fresh, refreshed once more when the server says it expired
// meanwhile) the way the Eden client's fetch does (api/session.ts). Used by the spreadsheet imports
// and the file lists' uploads.
import { endSession, freshAccessToken, refreshSession } from './session.ts'

export type UploadOutcome<Answer> = { ok: true; result: Answer } | { ok: false; status: number; code: string; fields: { field: string; message: string }[] }

type RawAnswer = { status: number; body: unknown }

function send(url: string, form: FormData, token: string, onProgress: (fraction: number) => void): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest()
    request.open('POST', url)
    request.setRequestHeader('authorization', `Bearer ${token}`)
    request.withCredentials = true
    request.responseType = 'json'
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    })
    request.upload.addEventListener('load', () => onProgress(1))
    request.addEventListener('load', () => resolve({ status: request.status, body: request.response as unknown }))
    // No answer at all: status 0, like Eden's network failure.
    request.addEventListener('error', () => resolve({ status: 0, body: null }))
    request.addEventListener('abort', () => resolve({ status: 0, body: null }))
    request.send(form)
  })
}

function codeOf(answer: RawAnswer): string {
  const body = answer.body
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') return (body as { error: string }).error
  return answer.status === 0 ? 'ERR_NETWORK' : `HTTP_${answer.status}`
}

function fieldsOf(answer: RawAnswer): { field: string; message: string }[] {
  const fields = answer.body && typeof answer.body === 'object' ? (answer.body as { fields?: unknown }).fields : undefined
  return Array.isArray(fields) ? fields.filter((field): field is { field: string; message: string } => typeof field?.field === 'string') : []
}

/** Posts the form built by `buildForm` (built again for a retry: a FormData is sent once). */
export async function uploadWithProgress<Answer>(url: string, buildForm: () => FormData, onProgress: (fraction: number) => void): Promise<UploadOutcome<Answer>> {
  let token: string | null
  try {
    token = await freshAccessToken()
  } catch {
    return { ok: false, status: 0, code: 'ERR_NETWORK', fields: [] }
  }
  if (!token) {
    endSession()
    return { ok: false, status: 401, code: 'ERR_SESSION_EXPIRED', fields: [] }
  }
  let answer = await send(url, buildForm(), token, onProgress)
  // The token may expire while a large file travels: refresh once and send again, as the API client does.
  if (answer.status === 403 && codeOf(answer) === 'ERR_SESSION_EXPIRED' && (await refreshSession())) {
    const renewed = await freshAccessToken().catch(() => null)
    if (renewed) {
      onProgress(0)
      answer = await send(url, buildForm(), renewed, onProgress)
    }
  }
  if (answer.status === 401 || (answer.status === 403 && codeOf(answer) === 'ERR_SESSION_EXPIRED')) endSession()
  if (answer.status === 200 && answer.body && typeof answer.body === 'object') return { ok: true, result: answer.body as Answer }
  return { ok: false, status: answer.status, code: codeOf(answer), fields: fieldsOf(answer) }
}
