// Seals secrets kept at rest (TOTP secrets) with AES-256-GCM: a random 12-byte nonce per value, the
// authentication tag checked on open, so a row edited or copied under another key fails loudly.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

const VERSION = 'v1'

export type SecretBox = { seal(plain: string): string; open(sealed: string): string }

/** The 32-byte key: SECRETS_KEY as given (hashed to length), so any long random string works. */
export function createSecretBox(keyMaterial: string): SecretBox {
  const key = createHash('sha256').update(keyMaterial).digest()
  return {
    seal(plain) {
      const nonce = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, nonce)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return [VERSION, nonce.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.')
    },
    open(sealed) {
      const [version, nonce, body, tag] = sealed.split('.')
      if (version !== VERSION || !nonce || body === undefined || !tag) throw new Error('not a sealed secret')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
    },
  }
}
