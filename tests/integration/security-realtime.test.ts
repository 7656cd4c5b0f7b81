// Security of the realtime side (issue 11, items 4 and 7): a socket never outlives its session, and
// what a client sends (bodies, frames, rooms) is bounded.
import { describe, expect, setSystemTime, test } from 'bun:test'
import { treaty } from '@elysiajs/eden'
import type { App } from '../../src/app.ts'
import { createTestContext, type TestContext } from '../helpers/context.ts'
import { makeSuper, makeTenant, signIn } from '../helpers/factories.ts'
import { openSocket, type TestSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()

/** Where the session is ended (an instance's typed client) and where the watched socket lives. */
type Instances = { act: (headers?: Record<string, string>) => ReturnType<typeof treaty<App>>; socketUrl: string }

const local: Instances = { act: (headers) => treaty<App>(context.app, { parseDate: false, headers }), socketUrl: baseUrl }

async function expectEnded(socket: TestSocket): Promise<void> {
  for (const deadline = Date.now() + 15_000; !socket.closed && Date.now() < deadline; ) await Bun.sleep(25)
  expect(socket.closed?.code).toBe(4001)
}

/** The five ways a session ends; each leaves the session's socket closed with 4001. */
function sessionEndCases(instances: () => Instances) {
  test('logout closes the socket of that session', async () => {
    const { act, socketUrl } = instances()
    const tenant = await makeTenant(context)
    const session = await signIn(context, tenant.agent)
    const socket = await openSocket(socketUrl, session.token)
    const out = await act({ cookie: session.cookie, authorization: `Bearer ${session.token}` }).api.auth.logout.delete()
    expect(out.status).toBe(200)
    await expectEnded(socket)
  })

  test('a stolen refresh token coming back revokes the session and closes its socket', async () => {
    const { act, socketUrl } = instances()
    const tenant = await makeTenant(context)
    const session = await signIn(context, tenant.agent)
    const socket = await openSocket(socketUrl, session.token)
    expect((await act({ cookie: session.cookie }).api.auth.refresh_token.post()).status).toBe(200)
    setSystemTime(new Date(Date.now() + 31_000))
    try {
      expect((await act({ cookie: session.cookie }).api.auth.refresh_token.post()).status).toBe(401)
    } finally {
      setSystemTime()
    }
    await expectEnded(socket)
  })

  test("an admin changing a user's password closes that user's socket", async () => {
    const { act, socketUrl } = instances()
    const tenant = await makeTenant(context)
    const session = await signIn(context, tenant.agent)
    const admin = await signIn(context, tenant.admin)
    const socket = await openSocket(socketUrl, session.token)
    expect((await act({ authorization: `Bearer ${admin.token}` }).api.users({ id: tenant.agent.id }).put({ name: tenant.agent.name, email: tenant.agent.email, password: 'Another123' })).status).toBe(200)
    await expectEnded(socket)
  })

  test("deleting a user closes that user's socket", async () => {
    const { act, socketUrl } = instances()
    const tenant = await makeTenant(context)
    const session = await signIn(context, tenant.agent)
    const admin = await signIn(context, tenant.admin)
    const socket = await openSocket(socketUrl, session.token)
    expect((await act({ authorization: `Bearer ${admin.token}` }).api.users({ id: tenant.agent.id }).delete()).status).toBe(200)
    await expectEnded(socket)
  })

  test("deactivating a company closes its users' sockets, not the super user's", async () => {
    const { act, socketUrl } = instances()
    const tenant = await makeTenant(context)
    const root = await makeSuper(context)
    const agent = await openSocket(socketUrl, (await signIn(context, tenant.agent)).token)
    const admin = await openSocket(socketUrl, (await signIn(context, tenant.admin)).token)
    const superSocket = await openSocket(socketUrl, root.token)
    expect((await act({ authorization: `Bearer ${root.token}` }).api.companies({ id: tenant.company.id }).put({ status: false })).status).toBe(200)
    await expectEnded(agent)
    await expectEnded(admin)
    await superSocket.settle()
    expect(superSocket.closed).toBeUndefined()
    superSocket.close()
  })
}

describe('a websocket does not outlive its session', () => {
  sessionEndCases(() => local)
})

describe.skipIf(!process.env.REDIS_URL)('a session ended on one instance closes its sockets on another', () => {
  let instances: Instances | undefined
  let stop: (() => Promise<void>) | undefined
  test('two instances share Redis', async () => {
    const started = await startSecondInstance(context)
    instances = { act: (headers) => treaty<App>(context.app, { parseDate: false, headers }), socketUrl: started.url }
    stop = started.stop
  })
  sessionEndCases(() => instances!)
  test('stop the second instance', async () => {
    await stop?.()
  })
})

/** A second app on the same database and Redis prefix, listening on its own port, subscribed before use. */
async function startSecondInstance(context: TestContext): Promise<{ url: string; stop: () => Promise<void> }> {
  const Redis = (await import('ioredis')).default
  const { createApp } = await import('../../src/app.ts')
  const { createDeps } = await import('../../src/modules/deps.ts')
  const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null })
  const deps = createDeps({ db: context.db, config: context.deps.config, redis, logger: context.deps.logger })
  const app = createApp(deps).listen({ port: 0, hostname: '127.0.0.1' })
  const channel = `${context.deps.config.redisPrefix}realtime`
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await Bun.sleep(20)) {
    const [, subscribers] = (await redis.pubsub('NUMSUB', channel)) as [string, number]
    if (Number(subscribers) >= 2) break
  }
  return {
    url: `http://127.0.0.1:${app.server!.port}`,
    stop: async () => {
      await app.stop(true)
      await deps.realtime.close()
      await redis.quit()
    },
  }
}
