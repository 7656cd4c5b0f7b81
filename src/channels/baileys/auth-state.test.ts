// The Baileys auth state against a real database (PGlite, or PostgreSQL with DATABASE_URL).
import { afterAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { proto } from '@whiskeysockets/baileys'
import { and, eq } from 'drizzle-orm'
import { whatsappKeys, whatsapps } from '../../../db/schema/index.ts'
import { createTestDatabase } from '../../../tests/helpers/database.ts'
import { makeCompany } from '../../../tests/helpers/factories.ts'
import { isSealed } from '../../core/crypto/sealed-text.ts'
import { createSecretBox } from '../../core/crypto/secret-box.ts'
import { sealLegacyAuthKeys } from './auth-sealing.ts'
import { clearAuthState, createKeyStore, loadAuthState, serializeValue } from './auth-state.ts'

const database = await createTestDatabase()
const { db } = database
const box = createSecretBox('auth-state test key')
afterAll(() => database.drop())

async function makeConnection() {
  const company = await makeCompany(db)
  const [whatsapp] = await db
    .insert(whatsapps)
    .values({ companyId: company.id, name: `WhatsApp ${randomBytes(3).toString('hex')}`, token: randomBytes(16).toString('hex') })
    .returning()
  return whatsapp!.id
}

const rowsOf = (whatsappId: number) => db.select().from(whatsappKeys).where(eq(whatsappKeys.whatsappId, whatsappId))

describe('key store', () => {
  test('set, get and delete round trip, Buffers intact, one row per key', async () => {
    const whatsappId = await makeConnection()
    const keys = createKeyStore(db, box, whatsappId)
    const preKey = { public: randomBytes(32), private: randomBytes(32) }
    const session = randomBytes(120)
    await keys.set({
      'pre-key': { '1': preKey, '2': { public: randomBytes(32), private: randomBytes(32) } },
      session: { '5511999990000.0': session },
      'sender-key-memory': { '120363012345678901@g.us': { '5511999990000:0@s.whatsapp.net': true } },
      'lid-mapping': { '5511999990000': '123456789012345' },
      'device-list': { '5511999990000': ['0', '12'] },
    })
    expect(await rowsOf(whatsappId)).toHaveLength(6)

    const preKeys = await keys.get('pre-key', ['1', '2', '404'])
    expect(Object.keys(preKeys).sort()).toEqual(['1', '2'])
    expect(Buffer.isBuffer(preKeys['1']!.public)).toBe(true)
    expect(Buffer.from(preKeys['1']!.public)).toEqual(preKey.public)
    expect(Buffer.from(preKeys['1']!.private)).toEqual(preKey.private)
    expect(Buffer.from((await keys.get('session', ['5511999990000.0']))['5511999990000.0']!)).toEqual(session)
    expect(await keys.get('sender-key-memory', ['120363012345678901@g.us'])).toEqual({
      '120363012345678901@g.us': { '5511999990000:0@s.whatsapp.net': true },
    })
    expect(await keys.get('lid-mapping', ['5511999990000'])).toEqual({ '5511999990000': '123456789012345' })
    expect(await keys.get('device-list', ['5511999990000'])).toEqual({ '5511999990000': ['0', '12'] })
    expect(await keys.get('pre-key', [])).toEqual({})

    // Overwrite one key and delete another in the same call (null means delete).
    const replaced = { public: randomBytes(32), private: randomBytes(32) }
    await keys.set({ 'pre-key': { '1': replaced, '2': null } })
    const after = await keys.get('pre-key', ['1', '2'])
    expect(Object.keys(after)).toEqual(['1'])
    expect(Buffer.from(after['1']!.public)).toEqual(replaced.public)
    expect(await rowsOf(whatsappId)).toHaveLength(5)
  })

  test('app state sync keys come back as protobuf objects', async () => {
    const whatsappId = await makeConnection()
    const keys = createKeyStore(db, box, whatsappId)
    const keyData = proto.Message.AppStateSyncKeyData.fromObject({ keyData: randomBytes(32), timestamp: 1_767_225_600 })
    await keys.set({ 'app-state-sync-key': { AAAAAQ: keyData } })
    const found = (await keys.get('app-state-sync-key', ['AAAAAQ']))['AAAAAQ']!
    expect(found).toBeInstanceOf(proto.Message.AppStateSyncKeyData)
    expect(Buffer.from(found.keyData!)).toEqual(Buffer.from(keyData.keyData!))
  })

  test('keys of two connections never mix', async () => {
    const first = await makeConnection()
    const second = await makeConnection()
    await createKeyStore(db, box, first).set({ session: { 'a.0': Buffer.from('first') } })
    await createKeyStore(db, box, second).set({ session: { 'a.0': Buffer.from('second') } })
    expect((await createKeyStore(db, box, first).get('session', ['a.0']))['a.0']!.toString()).toBe('first')
    expect((await createKeyStore(db, box, second).get('session', ['a.0']))['a.0']!.toString()).toBe('second')
  })

  test('a large pre-key upload (more rows than one insert batch) lands whole', async () => {
    const whatsappId = await makeConnection()
    const keys = createKeyStore(db, box, whatsappId)
    const preKeys = Object.fromEntries(Array.from({ length: 812 }, (_, index) => [String(index + 1), { public: randomBytes(32), private: randomBytes(32) }]))
    await keys.set({ 'pre-key': preKeys })
    expect(await rowsOf(whatsappId)).toHaveLength(812)
    expect(Object.keys(await keys.get('pre-key', ['1', '500', '501', '812']))).toHaveLength(4)
  })
})

describe('auth state', () => {
  test('fresh credentials when none are stored, then a restart resumes the saved ones', async () => {
    const whatsappId = await makeConnection()
    const first = await loadAuthState(db, box, whatsappId)
    expect(first.state.creds.registered).toBe(false)
    expect(first.state.creds.noiseKey.private).toBeInstanceOf(Uint8Array)
    expect(await rowsOf(whatsappId)).toHaveLength(0)

    // Baileys mutates creds in place, then emits creds.update: the adapter calls saveCreds.
    Object.assign(first.state.creds, { registered: true, me: { id: '5511999990000:7@s.whatsapp.net', name: 'Loja' }, routingInfo: randomBytes(16) })
    await first.saveCreds()
    await first.state.keys.set({ session: { '5511988887777.0': Buffer.from('session-bytes') } })

    const restarted = await loadAuthState(db, box, whatsappId)
    expect(restarted.state.creds.registered).toBe(true)
    expect(restarted.state.creds.me).toEqual({ id: '5511999990000:7@s.whatsapp.net', name: 'Loja' })
    expect(Buffer.from(restarted.state.creds.noiseKey.private)).toEqual(Buffer.from(first.state.creds.noiseKey.private))
    expect(Buffer.from(restarted.state.creds.signedIdentityKey.public)).toEqual(Buffer.from(first.state.creds.signedIdentityKey.public))
    expect(Buffer.from(restarted.state.creds.routingInfo!)).toEqual(Buffer.from(first.state.creds.routingInfo!))
    expect(restarted.state.creds.signedPreKey.keyId).toBe(first.state.creds.signedPreKey.keyId)
    expect(restarted.state.creds.advSecretKey).toBe(first.state.creds.advSecretKey)
    expect((await restarted.state.keys.get('session', ['5511988887777.0']))['5511988887777.0']!.toString()).toBe('session-bytes')

    const [row] = await db
      .select()
      .from(whatsappKeys)
      .where(and(eq(whatsappKeys.whatsappId, whatsappId), eq(whatsappKeys.category, 'creds')))
    expect(row!.keyId).toBe('creds')
  })

  test('concurrent saves keep the last state', async () => {
    const whatsappId = await makeConnection()
    const auth = await loadAuthState(db, box, whatsappId)
    const saves: Promise<void>[] = []
    for (let counter = 1; counter <= 10; counter++) {
      auth.state.creds.accountSyncCounter = counter
      saves.push(auth.saveCreds())
    }
    await Promise.all(saves)
    expect((await loadAuthState(db, box, whatsappId)).state.creds.accountSyncCounter).toBe(10)
  })

  test('clearAuthState forgets everything; the next load starts a new pairing', async () => {
    const whatsappId = await makeConnection()
    const other = await makeConnection()
    const auth = await loadAuthState(db, box, whatsappId)
    auth.state.creds.registered = true
    await auth.saveCreds()
    await auth.state.keys.set({ 'pre-key': { '1': { public: randomBytes(32), private: randomBytes(32) } } })
    await createKeyStore(db, box, other).set({ session: { 'x.0': Buffer.from('keep me') } })

    await clearAuthState(db, whatsappId)
    expect(await rowsOf(whatsappId)).toHaveLength(0)
    expect(await rowsOf(other)).toHaveLength(1)
    const fresh = await loadAuthState(db, box, whatsappId)
    expect(fresh.state.creds.registered).toBe(false)
    expect(Buffer.from(fresh.state.creds.noiseKey.private)).not.toEqual(Buffer.from(auth.state.creds.noiseKey.private))
  })

  test('a retired state writes nothing more (a late write cannot revive a logged-out session)', async () => {
    const whatsappId = await makeConnection()
    const auth = await loadAuthState(db, box, whatsappId)
    const pending = auth.saveCreds()
    await auth.retire()
    await pending
    await clearAuthState(db, whatsappId)
    await auth.saveCreds()
    await auth.state.keys.set({ session: { 'late.0': Buffer.from('late') } })
    expect(await rowsOf(whatsappId)).toHaveLength(0)
  })

  test('keys.clear drops the keys but keeps the credentials', async () => {
    const whatsappId = await makeConnection()
    const auth = await loadAuthState(db, box, whatsappId)
    await auth.saveCreds()
    await auth.state.keys.set({ session: { 'a.0': Buffer.from('a') }, 'pre-key': { '9': { public: randomBytes(32), private: randomBytes(32) } } })
    await auth.state.keys.clear!()
    const rows = await rowsOf(whatsappId)
    expect(rows.map((row) => row.category)).toEqual(['creds'])
  })
})

describe('sealed at rest', () => {
  test('credentials and keys are stored sealed: no key material in the rows; another key cannot read them', async () => {
    const whatsappId = await makeConnection()
    const auth = await loadAuthState(db, box, whatsappId)
    await auth.saveCreds()
    const preKey = { public: randomBytes(32), private: randomBytes(32) }
    await auth.state.keys.set({ 'pre-key': { '1': preKey } })
    const rows = await rowsOf(whatsappId)
    expect(rows).toHaveLength(2)
    for (const row of rows) {
      expect(isSealed(row.value)).toBe(true)
      expect(row.value).not.toContain(preKey.private.toString('base64'))
      expect(row.value).not.toContain(Buffer.from(auth.state.creds.noiseKey.private).toString('base64'))
    }
    expect(Buffer.from((await auth.state.keys.get('pre-key', ['1']))['1']!.private)).toEqual(preKey.private)
    await expect(loadAuthState(db, createSecretBox('another key'), whatsappId)).rejects.toThrow()
  })

  test('rows an older version stored in clear are read, then sealed by the boot sealing, once', async () => {
    const whatsappId = await makeConnection()
    const fresh = await loadAuthState(db, box, whatsappId)
    const preKey = { public: randomBytes(32), private: randomBytes(32) }
    await db.insert(whatsappKeys).values([
      { whatsappId, category: 'creds', keyId: 'creds', value: serializeValue(fresh.state.creds) },
      { whatsappId, category: 'pre-key', keyId: '9', value: serializeValue(preKey) },
    ])
    const before = await loadAuthState(db, box, whatsappId)
    expect(Buffer.from(before.state.creds.noiseKey.private)).toEqual(Buffer.from(fresh.state.creds.noiseKey.private))
    expect(await sealLegacyAuthKeys(db, box)).toBeGreaterThanOrEqual(2)
    expect((await rowsOf(whatsappId)).every((row) => isSealed(row.value))).toBe(true)
    const after = await loadAuthState(db, box, whatsappId)
    expect(Buffer.from(after.state.creds.noiseKey.private)).toEqual(Buffer.from(fresh.state.creds.noiseKey.private))
    expect(Buffer.from((await after.state.keys.get('pre-key', ['9']))['9']!.private)).toEqual(preKey.private)
    expect(await sealLegacyAuthKeys(db, box)).toBe(0)
  })
})
