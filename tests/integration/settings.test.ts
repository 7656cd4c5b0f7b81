import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { auditLog, settings } from '../../db/schema/index.ts'
import { isSealed } from '../../src/core/crypto/sealed-text.ts'
import { formatLogLine } from '../../src/core/logger.ts'
import { openSecretSetting, sealLegacySecretSettings } from '../../src/modules/settings/service.ts'
import type { DomainEvents } from '../../src/modules/events.ts'
import { settingDefinitions } from '../../src/modules/settings/defaults.ts'
import { getSetting, getSettings } from '../../src/modules/settings/queries.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makeSuper, makeTenant } from '../helpers/factories.ts'
import { errorOf, fieldsOf } from '../helpers/http.ts'

const context = await createTestContext()

async function storedValue(companyId: number, key: string) {
  const [row] = await context.db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, key)))
  return row?.value
}

describe('GET /api/settings', () => {
  test('every §9 key with its value, for admins including the payment token', async () => {
    const tenant = await makeTenant(context)
    const { status, data } = await tenant.asAdmin.api.settings.get()
    expect(status).toBe(200)
    expect(data!.map((setting) => setting.key).sort()).toEqual(Object.keys(settingDefinitions).sort())
    expect(data).toContainEqual({ key: 'userRating', value: 'disabled' })
    expect(data).toContainEqual({ key: 'scheduleType', value: 'disabled' })
    expect(data).toContainEqual({ key: 'asaas', value: '' })
  })

  test('any signed-in user reads them, without the payment token', async () => {
    const tenant = await makeTenant(context)
    const { status, data } = await tenant.asAgent.api.settings.get()
    expect(status).toBe(200)
    expect(data!.map((setting) => setting.key)).not.toContain('asaas')
    expect(data).toContainEqual({ key: 'CheckMsgIsGroup', value: 'enabled' })
  })

  test("only the caller's company, with defaults for keys it has no row for", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    await other.asAdmin.api.settings({ key: 'userRating' }).put({ value: 'enabled' })
    await context.db.delete(settings).where(and(eq(settings.companyId, tenant.company.id), eq(settings.key, 'call')))
    const { data } = await tenant.asAdmin.api.settings.get()
    expect(data).toContainEqual({ key: 'userRating', value: 'disabled' })
    expect(data).toContainEqual({ key: 'call', value: 'enabled' })
  })

  test('needs a token', async () => {
    const result = await context.api.api.settings.get()
    expect(result.status).toBe(401)
    expect(errorOf(result)).toEqual({ error: 'ERR_UNAUTHORIZED' })
  })
})

describe('PUT /api/settings/{key}', () => {
  test('an admin changes a setting; it is stored, returned and announced', async () => {
    const tenant = await makeTenant(context)
    const events: DomainEvents['setting.changed'][] = []
    const stop = context.deps.bus.on('setting.changed', (event) => void events.push(event))
    const { status, data } = await tenant.asAdmin.api.settings({ key: 'scheduleType' }).put({ value: 'queue' })
    stop()
    expect(status).toBe(200)
    expect(data).toEqual({ key: 'scheduleType', value: 'queue' })
    expect(await storedValue(tenant.company.id, 'scheduleType')).toBe('queue')
    expect(events).toEqual([{ companyId: tenant.company.id, key: 'scheduleType', value: 'queue' }])
    const read = await tenant.asAgent.api.settings.get()
    expect(read.data).toContainEqual({ key: 'scheduleType', value: 'queue' })
  })

  test('the payment token (trimmed; a missing row is created) is sealed at rest and masked everywhere it is read back', async () => {
    const tenant = await makeTenant(context)
    const token = '$aact_YTU5YTE0M2M2N2I4MTliNzk0YTI5N2U5MzdjNWZmNDQ6OjAwMDAwMDAwMDAwMDAwNzk5NTg6OiRhYWNoXzU5'
    await context.db.delete(settings).where(and(eq(settings.companyId, tenant.company.id), eq(settings.key, 'asaas')))
    const events: DomainEvents['setting.changed'][] = []
    const stop = context.deps.bus.on('setting.changed', (event) => void events.push(event))
    const lines: string[] = []
    const logger = context.deps.logger
    const original = { ...logger }
    for (const level of ['debug', 'info', 'warn', 'error'] as const) logger[level] = (message, fields) => void lines.push(formatLogLine(level, message, fields))
    try {
      const { status, data } = await tenant.asAdmin.api.settings({ key: 'asaas' }).put({ value: `  ${token}  ` })
      expect(status).toBe(200)
      expect(data).toEqual({ key: 'asaas', value: `****${token.slice(-4)}` })
    } finally {
      Object.assign(logger, original)
      stop()
    }
    // The database holds it sealed (no clear token in the settings row nor in the audit log) ...
    const stored = (await storedValue(tenant.company.id, 'asaas'))!
    expect(isSealed(stored)).toBe(true)
    expect(stored).not.toContain(token.slice(5, 30))
    const audit = await context.db.select().from(auditLog).where(eq(auditLog.companyId, tenant.company.id))
    expect(JSON.stringify(audit)).not.toContain(token.slice(5, 30))
    // ... the code that uses it opens it; every reader gets it masked (list, event, logs).
    expect(await openSecretSetting(context.deps, tenant.company.id, 'asaas')).toBe(token)
    expect((await tenant.asAdmin.api.settings.get()).data).toContainEqual({ key: 'asaas', value: `****${token.slice(-4)}` })
    expect(events).toEqual([{ companyId: tenant.company.id, key: 'asaas', value: `****${token.slice(-4)}` }])
    expect(lines.join('\n')).not.toContain(token.slice(5, 30))
    // Its masked form sent back is not taken for a token.
    const masked = await tenant.asAdmin.api.settings({ key: 'asaas' }).put({ value: `****${token.slice(-4)}` })
    expect(masked.status).toBe(422)
    expect(await openSecretSetting(context.deps, tenant.company.id, 'asaas')).toBe(token)
  })

  test('a token stored in clear before sealing existed is sealed at boot, once, and still opens', async () => {
    const tenant = await makeTenant(context)
    await context.db.update(settings).set({ value: '$aact_clear_legacy_token_1234' }).where(and(eq(settings.companyId, tenant.company.id), eq(settings.key, 'asaas')))
    expect(await sealLegacySecretSettings(context.deps)).toBeGreaterThanOrEqual(1)
    const stored = (await storedValue(tenant.company.id, 'asaas'))!
    expect(isSealed(stored)).toBe(true)
    expect(stored).not.toContain('clear_legacy')
    expect(await openSecretSetting(context.deps, tenant.company.id, 'asaas')).toBe('$aact_clear_legacy_token_1234')
    expect(await sealLegacySecretSettings(context.deps)).toBe(0)
    expect(await storedValue(tenant.company.id, 'asaas')).toBe(stored)
  })

  test('a value the key does not accept is 422 on field value, and nothing changes', async () => {
    const tenant = await makeTenant(context)
    for (const [key, value] of [['userRating', 'maybe'], ['scheduleType', 'enabled'], ['chatBotType', 'list'], ['campaignsEnabled', 'enabled']] as const) {
      const result = await tenant.asAdmin.api.settings({ key }).put({ value })
      expect({ key, status: result.status }).toEqual({ key, status: 422 })
      expect(errorOf(result)!.error).toBe('ERR_VALIDATION')
      expect(fieldsOf(result)).toEqual(['value'])
      expect(await storedValue(tenant.company.id, key)).toBe(settingDefinitions[key]!.defaultValue)
    }
  })

  test('a missing or too long value is 422', async () => {
    const tenant = await makeTenant(context)
    const missing = await tenant.asAdmin.api.settings({ key: 'asaas' }).put({} as { value: string })
    expect(missing.status).toBe(422)
    expect(fieldsOf(missing)).toContain('value')
    const long = await tenant.asAdmin.api.settings({ key: 'asaas' }).put({ value: 'x'.repeat(2001) })
    expect(long.status).toBe(422)
    expect(fieldsOf(long)).toContain('value')
  })

  test('an unknown key is 404 ERR_NO_SETTING_FOUND', async () => {
    const tenant = await makeTenant(context)
    const result = await tenant.asAdmin.api.settings({ key: 'noSuchSetting' }).put({ value: 'enabled' })
    expect(result.status).toBe(404)
    expect(errorOf(result)).toEqual({ error: 'ERR_NO_SETTING_FOUND' })
    const inherited = await tenant.asAdmin.api.settings({ key: 'toString' }).put({ value: 'x' })
    expect(inherited.status).toBe(404)
  })

  test('only admins: an agent gets 403, no token 401, and nothing changes', async () => {
    const tenant = await makeTenant(context)
    const agent = await tenant.asAgent.api.settings({ key: 'userRating' }).put({ value: 'enabled' })
    expect(agent.status).toBe(403)
    expect(errorOf(agent)).toEqual({ error: 'ERR_NO_PERMISSION' })
    const anonymous = await context.api.api.settings({ key: 'userRating' }).put({ value: 'enabled' })
    expect(anonymous.status).toBe(401)
    expect(await storedValue(tenant.company.id, 'userRating')).toBe('disabled')
  })

  test("changes only the caller's company, super users included", async () => {
    const tenant = await makeTenant(context)
    const other = await makeTenant(context)
    const platform = await makeSuper(context)
    await tenant.asAdmin.api.settings({ key: 'userRating' }).put({ value: 'enabled' })
    await platform.client.api.settings({ key: 'call' }).put({ value: 'disabled' })
    expect(await storedValue(tenant.company.id, 'userRating')).toBe('enabled')
    expect(await storedValue(other.company.id, 'userRating')).toBe('disabled')
    expect(await storedValue(platform.company.id, 'call')).toBe('disabled')
    expect(await storedValue(tenant.company.id, 'call')).toBe('enabled')
  })
})

describe('settings queries for other modules', () => {
  test('getSetting and getSettings read the stored value or the default', async () => {
    const company = await makeCompany(context.db)
    await context.db.update(settings).set({ value: 'enabled' }).where(and(eq(settings.companyId, company.id), eq(settings.key, 'userRating')))
    await context.db.delete(settings).where(and(eq(settings.companyId, company.id), eq(settings.key, 'scheduleType')))
    expect(await getSetting(context.db, company.id, 'userRating')).toBe('enabled')
    expect(await getSetting(context.db, company.id, 'scheduleType')).toBe('disabled')
    const all = await getSettings(context.db, company.id)
    expect(all.userRating).toBe('enabled')
    expect(all.scheduleType).toBe('disabled')
    expect(all.campaignsEnabled).toBe('true')
  })
})
