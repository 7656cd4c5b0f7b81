// An OpenAI key is a secret that bills the company: it leaves the server in full only to an admin
// who opens one prompt (GET /prompt/{id}, the edit form). Lists, write answers and realtime frames
// carry it masked, enough to tell two keys apart (core's one mask rule).
import { maskSecret } from '../../core/crypto/sealed-text.ts'

export function maskApiKey(apiKey: string): string {
  return maskSecret(apiKey)
}
