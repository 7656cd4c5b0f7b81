// An OpenAI key is a secret that bills the company: it leaves the server in full only to an admin
// who opens one prompt (GET /prompt/{id}, the edit form). Lists, write answers and realtime frames
// carry it masked, enough to tell two keys apart.

const MASK = '****'
/** Below this length the last 4 characters would give away too much of the key: nothing is shown. */
const SHORTEST_SHOWN = 12

export function maskApiKey(apiKey: string): string {
  if (apiKey.length === 0) return ''
  return apiKey.length < SHORTEST_SHOWN ? MASK : `${MASK}${apiKey.slice(-4)}`
}
