// Credentials a tenant gives us (AI API keys, integration service-account JSON) are kept sealed in
// their text columns (secret-box.ts). An empty value means "none" and stays empty; a value stored
// before sealing existed is read as it is until the boot migration (sealLegacy*) seals it.
import type { SecretBox } from './secret-box.ts'

const sealedShape = /^v1\.[\w-]+\.[\w-]*\.[\w-]+$/

export function isSealed(stored: string): boolean {
  return sealedShape.test(stored)
}

export function sealText(box: SecretBox, plain: string): string {
  return plain === '' ? '' : box.seal(plain)
}

export function openText(box: SecretBox, stored: string): string {
  return isSealed(stored) ? box.open(stored) : stored
}

const MASK = '****'
/** Below this length the last 4 characters would give away too much of the secret: nothing is shown. */
const SHORTEST_SHOWN = 12

/** What leaves the server of a secret: "****" and its last 4 characters, enough to tell two apart. */
export function maskSecret(plain: string): string {
  if (plain.length === 0) return ''
  return plain.length < SHORTEST_SHOWN ? MASK : `${MASK}${plain.slice(-4)}`
}
