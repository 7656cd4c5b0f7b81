// An OpenAI key is a secret that bills the company: once given, it never leaves the server again but
// as the Bearer token of the requests to the base URL it was given with (changing that URL takes the
// key again, service.ts). Every answer and realtime frame carries it masked, enough to tell two keys
// apart (core's one mask rule); a form sends the mask back to keep the stored key.
import { maskSecret } from '../../core/crypto/sealed-text.ts'

export function maskApiKey(apiKey: string): string {
  return maskSecret(apiKey)
}
