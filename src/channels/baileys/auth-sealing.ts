// The boot sealing of WhatsApp credentials and Signal keys stored in clear by an older version
// (auth-state.ts seals what it writes). Apart from auth-state.ts so that the boot does not load Baileys.
import { and, eq, notLike } from 'drizzle-orm'
import type { Database } from '../../../db/client.ts'
import { whatsappKeys } from '../../../db/schema/index.ts'
import type { SecretBox } from '../../core/crypto/secret-box.ts'

/** Rows sealed per statement by the boot sealing. */
const SEAL_BATCH = 500

/**
 * The boot sealing of credentials and keys stored in clear by an older version: a page of clear rows
 * at a time, each sealed in place unless rewritten meanwhile (the update names the old value).
 * Returns how many.
 */
export async function sealLegacyAuthKeys(db: Database, box: SecretBox): Promise<number> {
  let sealed = 0
  for (;;) {
    const rows = await db
      .select({ whatsappId: whatsappKeys.whatsappId, category: whatsappKeys.category, keyId: whatsappKeys.keyId, value: whatsappKeys.value })
      .from(whatsappKeys)
      .where(notLike(whatsappKeys.value, 'v1.%'))
      .limit(SEAL_BATCH)
    if (rows.length === 0) return sealed
    await db.transaction(async (tx) => {
      for (const row of rows) {
        const updated = await tx
          .update(whatsappKeys)
          .set({ value: box.seal(row.value) })
          .where(and(eq(whatsappKeys.whatsappId, row.whatsappId), eq(whatsappKeys.category, row.category), eq(whatsappKeys.keyId, row.keyId), eq(whatsappKeys.value, row.value)))
          .returning({ keyId: whatsappKeys.keyId })
        sealed += updated.length
      }
    })
  }
}
