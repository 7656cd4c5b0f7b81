// A request that reaches the API while the database is unreachable answers 503 ERR_SERVICE_UNAVAILABLE
// with Retry-After, never a 500: the client may simply try again (issue 11: no request produces a 500).
// PostgreSQL only: the proxy the test cuts cannot stand between the app and an embedded PGlite.
import { afterAll, describe, expect, test } from 'bun:test'
import { treaty } from '@elysiajs/eden'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { createLogger } from '../../src/core/logger.ts'
import { createDeps } from '../../src/modules/deps.ts'
import { openPostgres } from '../../db/client.ts'
import { createTestDatabase, testDatabaseUrl } from '../helpers/database.ts'
import { errorOf } from '../helpers/http.ts'
import { startTcpProxy } from '../helpers/tcp-proxy.ts'

const cleanups: (() => Promise<unknown>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
})

describe.skipIf(!testDatabaseUrl())('the database goes away', () => {
  test('an API request answers 503 with Retry-After, and works again once the database is back', async () => {
    const database = await createTestDatabase()
    cleanups.push(() => database.drop())
    const target = new URL(database.url!)
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
    cleanups.push(() => proxy.close())
    const handle = await openPostgres(proxy.through(database.url!), { max: 2 })
    cleanups.push(() => handle.close())
    const config = { ...loadConfig(), logLevel: 'silent' }
    const app = createApp(createDeps({ db: handle.db, config, logger: createLogger('silent') }))
    const api = treaty(app, { parseDate: false })
    const signIn = () => api.api.auth.login.post({ email: 'nobody@example.com', password: 'Wrong-pass-1' })

    expect((await signIn()).status).toBe(401)
    await proxy.cut()
    const during = await signIn()
    expect(during.status).toBe(503)
    expect(errorOf(during)).toEqual({ error: 'ERR_SERVICE_UNAVAILABLE' })
    expect(during.response.headers.get('retry-after')).toBe('5')
    await proxy.restore()
    let after = await signIn()
    // postgres.js reconnects on the next query; the first one may still meet the dropped socket.
    for (let attempt = 0; attempt < 20 && after.status === 503; attempt++) after = await signIn()
    expect(after.status).toBe(401)
  }, 30_000)
})
