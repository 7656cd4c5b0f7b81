// The external message API's request as the /messages-api page builds it (§2, §5 "Messages API
// forms", §7 POST /messages/send): the checks of its forms, the request itself, and the same request
// written as curl, so what the page sends is what another system can copy.

export type SendForm = { token: string; number: string; body: string; file: File | null }
export type SendFormErrors = Partial<Record<'token' | 'number' | 'body' | 'file', true>>

/** §5: token and number required, and a body (text form) or a file (media form). */
export function checkSendForm(form: SendForm, kind: 'text' | 'media'): SendFormErrors {
  const errors: SendFormErrors = {}
  if (form.token.trim() === '') errors.token = true
  if (form.number.trim() === '') errors.number = true
  if (kind === 'text' && form.body.trim() === '') errors.body = true
  if (kind === 'media' && !form.file) errors.file = true
  return errors
}

/** A value between single quotes for a POSIX shell (a quote inside closes, escapes and reopens). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`
}

/** The request as curl: JSON for a text, multipart (medias=@file) for a file. */
export function curlOf(origin: string, form: SendForm, kind: 'text' | 'media'): string {
  const lines = [`curl -X POST ${origin}/api/messages/send`, `  -H ${shellQuote(`Authorization: Bearer ${form.token.trim()}`)}`]
  if (kind === 'text') {
    lines.push(`  -H 'Content-Type: application/json'`, `  -d ${shellQuote(JSON.stringify({ number: form.number.trim(), body: form.body }))}`)
  } else {
    lines.push(`  -F ${shellQuote(`number=${form.number.trim()}`)}`)
    if (form.body !== '') lines.push(`  -F ${shellQuote(`body=${form.body}`)}`)
    lines.push(`  -F ${shellQuote(`medias=@${form.file?.name ?? 'file'}`)}`)
  }
  return lines.join(' \\\n')
}

/** POST /api/messages/send with the connection's token (not the signed-in user's session). */
export async function sendThroughApi(form: SendForm, kind: 'text' | 'media'): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${form.token.trim()}` }
  let payload: BodyInit
  if (kind === 'text') {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify({ number: form.number.trim(), body: form.body })
  } else {
    const data = new FormData()
    data.append('number', form.number.trim())
    if (form.body !== '') data.append('body', form.body)
    if (form.file) data.append('medias', form.file)
    payload = data
  }
  const response = await fetch('/api/messages/send', { method: 'POST', headers, body: payload, credentials: 'omit' })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON (a proxy's error page): shown as it came.
  }
  return { status: response.status, body }
}
