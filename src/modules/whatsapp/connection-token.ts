// The external message API's bearer token of a connection, kept like the other credentials a company
// holds: sealed at rest with SECRETS_KEY (whoever reads the database or a backup cannot send as the
// company), shown whole to its admins only (GET /whatsapp/{id}, as the connection modal does). A request's
// token is found by a keyed hash (HMAC-SHA256 under the same key), never compared with the sealed text.
import { createHmac, randomBytes } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { whatsapps } from '../../../db/schema/index.ts'
import type { Executor } from '../../../db/client.ts'
import type { Config } from '../../config.ts'
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import { isSealed, openText } from '../../core/crypto/sealed-text.ts'

type KeyHolder = { config: Pick<Config, 'secretsKey'> }

/** A new token: 256 random bits. */
export function generateConnectionToken(): string {
  return randomBytes(32).toString('base64url')
}

/** The lookup key of a token: the same for the same token, useless without SECRETS_KEY. */
export function connectionTokenHash(deps: KeyHolder, token: string): string {
  return createHmac('sha256', deps.config.secretsKey).update(`connection-token:${token}`).digest('base64url')
}

/** The columns that store a token: its sealed text and its lookup key. */
export function storedConnectionToken(deps: KeyHolder, token: string): { token: string; tokenHash: string } {
  return { token: createSecretBox(deps.config.secretsKey).seal(token), tokenHash: connectionTokenHash(deps, token) }
}

/** The token as its admins see it (a row not yet sealed is read as it is). */
export function openConnectionToken(deps: KeyHolder, stored: string): string {
  return openText(createSecretBox(deps.config.secretsKey), stored)
}

/**
 * The boot sealing of tokens stored in clear (before sealing existed, or written by an older
 * version): each is sealed in place with its lookup key, the update naming the old value so a token
 * regenerated meanwhile is left to its writer. Returns how many.
 */
export async function sealLegacyConnectionTokens(deps: KeyHolder & { db: Executor }): Promise<number> {
  const rows = await deps.db.select({ id: whatsapps.id, token: whatsapps.token }).from(whatsapps).where(isNull(whatsapps.tokenHash))
  let sealed = 0
  for (const row of rows) {
    const plain = isSealed(row.token) ? openConnectionToken(deps, row.token) : row.token
    const updated = await deps.db
      .update(whatsapps)
      .set(storedConnectionToken(deps, plain))
      .where(and(eq(whatsapps.id, row.id), eq(whatsapps.token, row.token), isNull(whatsapps.tokenHash)))
      .returning({ id: whatsapps.id })
    sealed += updated.length
  }
  return sealed
}
