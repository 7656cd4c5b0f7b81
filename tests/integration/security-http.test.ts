// HTTP-level holes of issue 11, item 10d-f: secrets and personal data in logs, missing security
// headers and source maps in production, and a search text that cuts an export after its 200.
import { describe, expect, spyOn, test } from 'bun:test'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createLogger } from '../../src/core/logger.ts'
import { assetResponse } from '../../src/web/assets.ts'
import { assetsDir } from '../../web/build-manifest.ts'
import { createTestContext } from '../helpers/context.ts'
import { fieldsOf } from '../helpers/http.ts'
import { makeContact, makeTenant } from '../helpers/factories.ts'

const context = await createTestContext()

describe('logs keep no secrets nor message contents (item 10d)', () => {
  test("credential and content fields, a failed query's params and the reset URL's password are redacted", () => {
    const lines: string[] = []
    const errorSpy = spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)))
    // Restored whatever happens: the next test file of this worker shares the console (--no-isolate).
    try {
      const logger = createLogger('info')
      // What Drizzle raises for a failed insert: the parameters (a message body, a hash) in the message.
      const failed = new Error('Failed query: insert into "messages" ("body", "company_id") values ($1, $2)\nparams: Meu CPF é 123.456.789-00,42')
      logger.error('unhandled request error', {
        method: 'POST',
        url: '/api/resetpasswords/ana@example.com/123456/NewSecret99',
        error: failed,
        password: 'hunter2',
        authorization: 'Bearer eyJhbGciOi',
        nested: { apiKey: 'sk-live-1', jsonContent: '{"cpf":"1"}', refreshToken: 'abc.def', body: 'Olá, meu cartão é 4111' },
      })
      const line = lines.join('\n')
      for (const secret of ['123.456.789-00', 'NewSecret99', 'hunter2', 'eyJhbGciOi', 'sk-live-1', '"cpf"', 'abc.def', '4111']) expect(line).not.toContain(secret)
      expect(line).toContain('Failed query: insert into')
      expect(line).toContain('/api/resetpasswords/ana@example.com')
    } finally {
      errorSpy.mockRestore()
    }
  })
})

describe('security headers and source maps (item 10e)', () => {
  test('/swagger has a CSP and refuses framing; API answers are nosniff', async () => {
    const swagger = await context.app.handle(new Request('http://local/swagger'))
    expect(swagger.status).toBe(200)
    expect(swagger.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(swagger.headers.get('x-frame-options')).toBe('DENY')
    const api = await context.app.handle(new Request('http://local/api/auth/me'))
    expect(api.status).toBe(401)
    expect(api.headers.get('x-content-type-options')).toBe('nosniff')
    const tenant = await makeTenant(context)
    const listed = await context.app.handle(new Request('http://local/api/contacts', { headers: { authorization: `Bearer ${tenant.adminToken}` } }))
    expect(listed.status).toBe(200)
    expect(listed.headers.get('x-content-type-options')).toBe('nosniff')
  })

  test('source maps are not served outside development', () => {
    mkdirSync(assetsDir, { recursive: true })
    const name = `security-probe-${process.pid}.js.map`
    const path = join(assetsDir, name)
    writeFileSync(path, '{"version":3,"sources":["secret.ts"]}')
    try {
      // What GET /assets/:file answers (src/web/pages.ts passes NODE_ENV=development as sourceMaps).
      expect(assetResponse(name, null)).toBeUndefined()
      expect(assetResponse(name, null, { sourceMaps: false })).toBeUndefined()
      expect(assetResponse(name, null, { sourceMaps: true })?.status).toBe(200)
    } finally {
      rmSync(path, { force: true })
    }
  })
})

describe('search text is validated before anything streams (item 10f)', () => {
  test('NUL and control characters in searchParam are a 422 on every list, the export included', async () => {
    const tenant = await makeTenant(context)
    await makeContact(context.db, { companyId: tenant.company.id, name: 'Ana' })
    const token = tenant.adminToken
    for (const path of ['/api/contacts/export', '/api/contacts', '/api/tickets', '/api/users', '/api/tags', '/api/quick-messages', '/api/schedules']) {
      for (const bad of ['%00', 'a%00b', '%1F', '%7F']) {
        const response = await context.app.handle(new Request(`http://local${path}?searchParam=${bad}`, { headers: { authorization: `Bearer ${token}` } }))
        expect({ path, bad, status: response.status }).toEqual({ path, bad, status: 422 })
        expect(fieldsOf({ error: { value: await response.json() } } as never)).toEqual(['searchParam'])
      }
    }
    // An ordinary search still exports.
    const fine = await context.app.handle(new Request('http://local/api/contacts/export?format=csv&searchParam=Ana', { headers: { authorization: `Bearer ${token}` } }))
    expect(fine.status).toBe(200)
    expect(await fine.text()).toContain('Ana')
  })
})
