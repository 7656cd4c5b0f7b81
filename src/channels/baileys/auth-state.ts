// Baileys' authentication state (credentials and Signal keys) kept in PostgreSQL, one row per key,
// so that a key update rewrites one small row instead of a whole JSON blob per connection. Every value
// is sealed with SECRETS_KEY: with the credentials anyone could act as the company's linked device. A
// value stored in clear by an older version is read as it is, sealed when Baileys writes it again or
// at the next boot (auth-sealing.ts).
import {
  BufferJSON,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys'
import { and, eq, inArray, ne, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client.ts'
import { openText } from '../../core/crypto/sealed-text.ts'
import type { SecretBox } from '../../core/crypto/secret-box.ts'
import { whatsappKeys } from '../../../db/schema/index.ts'

/** The credentials live in the same table, under this category and key id. */
export const CREDS_CATEGORY = 'creds'
const CREDS_KEY_ID = 'creds'
/** Rows per INSERT: Baileys uploads hundreds of pre-keys at once, and drivers cap bind parameters. */
const INSERT_BATCH = 500

export type DatabaseAuthState = {
  state: AuthenticationState
  /** Writes the current credentials (Baileys mutates `state.creds` in place before `creds.update`). */
  saveCreds: () => Promise<void>
  /**
   * Stops all writes and waits for those in flight. Called before the rows are deleted, so that a
   * late write of a logged-out session cannot bring its credentials back.
   */
  retire: () => Promise<void>
}

export const serializeValue = (value: unknown): string => JSON.stringify(value, BufferJSON.replacer)
export const deserializeValue = (text: string): unknown => JSON.parse(text, BufferJSON.reviver)
const sealValue = (box: SecretBox, value: unknown): string => box.seal(serializeValue(value))
const openValue = (box: SecretBox, stored: string): unknown => deserializeValue(openText(box, stored))

/** Loads (or starts) the auth state of one connection. A restart resumes from what was saved. */
export async function loadAuthState(db: Database, box: SecretBox, whatsappId: number): Promise<DatabaseAuthState> {
  const [stored] = await db
    .select({ value: whatsappKeys.value })
    .from(whatsappKeys)
    .where(and(eq(whatsappKeys.whatsappId, whatsappId), eq(whatsappKeys.category, CREDS_CATEGORY), eq(whatsappKeys.keyId, CREDS_KEY_ID)))
  const creds = stored ? (openValue(box, stored.value) as AuthenticationCreds) : initAuthCreds()

  let retired = false
  const inFlight = new Set<Promise<unknown>>()
  const track = <T>(write: Promise<T>): Promise<T> => {
    const settled = write.catch(() => {})
    inFlight.add(settled)
    void settled.then(() => inFlight.delete(settled))
    return write
  }

  // Credential writes are chained so that an older snapshot never lands after a newer one
  // (a pooled driver may otherwise run two upserts on two connections in any order).
  let lastSave: Promise<void> = Promise.resolve()
  const saveCreds = () => {
    if (retired) return Promise.resolve()
    const value = sealValue(box, creds)
    const write = lastSave.then(() => upsertRows(db, [{ whatsappId, category: CREDS_CATEGORY, keyId: CREDS_KEY_ID, value }]))
    lastSave = write.catch(() => {})
    return track(write)
  }

  const store = createKeyStore(db, box, whatsappId)
  const keys: SignalKeyStore = {
    get: store.get,
    set: (data) => (retired ? undefined : track(Promise.resolve(store.set(data)))),
    clear: () => store.clear?.(),
  }

  const retire = async () => {
    retired = true
    await Promise.all([...inFlight])
  }

  return { state: { creds, keys }, saveCreds, retire }
}

/** Signal keys of one connection: reads in one query per call, writes in one transaction. */
export function createKeyStore(db: Database, box: SecretBox, whatsappId: number): SignalKeyStore {
  return {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const found: { [id: string]: SignalDataTypeMap[T] } = {}
      if (ids.length === 0) return found
      const rows = await db
        .select({ keyId: whatsappKeys.keyId, value: whatsappKeys.value })
        .from(whatsappKeys)
        .where(and(eq(whatsappKeys.whatsappId, whatsappId), eq(whatsappKeys.category, type), inArray(whatsappKeys.keyId, ids)))
      for (const row of rows) {
        let value = openValue(box, row.value)
        // Baileys calls methods of the protobuf class on this one, so a plain object is not enough.
        if (type === 'app-state-sync-key' && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>)
        found[row.keyId] = value as SignalDataTypeMap[T]
      }
      return found
    },

    async set(data: SignalDataSet) {
      const upserts: (typeof whatsappKeys.$inferInsert)[] = []
      const deletes = new Map<string, string[]>()
      for (const category of Object.keys(data) as (keyof SignalDataSet)[]) {
        const entries = data[category]
        if (!entries) continue
        for (const [keyId, value] of Object.entries(entries)) {
          if (value === null || value === undefined) deletes.set(category, [...(deletes.get(category) ?? []), keyId])
          else upserts.push({ whatsappId, category, keyId, value: sealValue(box, value) })
        }
      }
      if (upserts.length === 0 && deletes.size === 0) return
      await db.transaction(async (tx) => {
        await upsertRows(tx, upserts)
        for (const [category, keyIds] of deletes) {
          await tx
            .delete(whatsappKeys)
            .where(and(eq(whatsappKeys.whatsappId, whatsappId), eq(whatsappKeys.category, category), inArray(whatsappKeys.keyId, keyIds)))
        }
      })
    },

    /** Baileys' "clear all the data in the store": the keys, not the credentials. */
    async clear() {
      await db.delete(whatsappKeys).where(and(eq(whatsappKeys.whatsappId, whatsappId), ne(whatsappKeys.category, CREDS_CATEGORY)))
    },
  }
}

/** Forgets a connection's credentials and keys: the next connect starts a new pairing. */
export async function clearAuthState(db: Database, whatsappId: number): Promise<void> {
  await db.delete(whatsappKeys).where(eq(whatsappKeys.whatsappId, whatsappId))
}

type Writer = Pick<Database, 'insert'>

async function upsertRows(db: Writer, rows: (typeof whatsappKeys.$inferInsert)[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await db
      .insert(whatsappKeys)
      .values(rows.slice(start, start + INSERT_BATCH))
      .onConflictDoUpdate({
        target: [whatsappKeys.whatsappId, whatsappKeys.category, whatsappKeys.keyId],
        set: { value: sql`excluded.value`, updatedAt: sql`now()` },
      })
  }
}
