import { describe, expect, test } from 'bun:test'
import { createTestContext } from '../helpers/context.ts'
import { makeCompany, makeTenant, makeUser, signIn } from '../helpers/factories.ts'
import { openSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()

describe('websocket /ws', () => {
  test('the handshake refuses a missing or forged token with 401', async () => {
    const none = await fetch(`${baseUrl}/ws`, { headers: { upgrade: 'websocket', connection: 'upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } })
    expect(none.status).toBe(401)
    const forged = await fetch(`${baseUrl}/ws?token=abc.def.ghi`, { headers: { upgrade: 'websocket', connection: 'upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } })
    expect(forged.status).toBe(401)
    expect(await forged.json()).toEqual({ error: 'ERR_UNAUTHORIZED' })
  })

  test('a signed-in user connects and gets a ready frame; bad frames get an error frame', async () => {
    const tenant = await makeTenant(context)
    const socket = await openSocket(baseUrl, tenant.agentToken)
    expect(socket.frames[0]).toEqual({ event: 'ready', data: { userId: tenant.agent.id, companyId: tenant.company.id } })
    socket.send('joinTickets', 'nonsense')
    const error = await socket.next((frame) => frame.event === 'error')
    expect(error.data).toEqual({ error: 'ERR_VALIDATION', event: 'joinTickets' })
    socket.close()
  })

  test('frames sent the moment the socket opens are handled, not dropped while it registers', async () => {
    // The browser joins its rooms in the socket's open event, while the server is still reading the
    // user's rights from the database (on PostgreSQL every such join used to be dropped). Each join
    // here is judged on its status (bad), which only a registered socket gets: a frame handled with
    // no socket is answered without its event.
    const tenant = await makeTenant(context)
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(tenant.agentToken)}`
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const socket = new WebSocket(url)
        const errors: unknown[] = []
        socket.addEventListener('message', (event) => {
          const frame = JSON.parse(String(event.data)) as { event?: string; data?: unknown }
          if (frame.event === 'error') errors.push(frame.data)
        })
        socket.addEventListener('open', () => socket.send(JSON.stringify({ event: 'joinTickets', data: 'nonsense' })))
        for (let deadline = Date.now() + 15_000; errors.length === 0 && Date.now() < deadline; ) await Bun.sleep(10)
        socket.close()
        return errors
      }),
    )
    expect(answers).toEqual(Array.from({ length: 5 }, () => [{ error: 'ERR_VALIDATION', event: 'joinTickets' }]))
  })

  test('a new sign-in logs the other session out with the auth event, and only that user', async () => {
    const company = await makeCompany(context.db)
    const user = await makeUser(context.db, { companyId: company.id })
    const colleague = await makeUser(context.db, { companyId: company.id })
    const first = await signIn(context, user)
    const colleagueSession = await signIn(context, colleague)
    const oldTab = await openSocket(baseUrl, first.token)
    const colleagueTab = await openSocket(baseUrl, colleagueSession.token)
    await signIn(context, user)
    const frame = await oldTab.next((candidate) => candidate.channel === `company-${company.id}-auth`)
    expect(frame.data).toEqual({ action: 'logout', user: { id: user.id } })
    await colleagueTab.settle()
    expect(colleagueTab.frames.some((candidate) => candidate.channel?.endsWith('-auth'))).toBe(false)
    // The ended session's socket is closed by the server (the closing handshake may take a while on a busy machine).
    for (const deadline = Date.now() + 15_000; !oldTab.closed && Date.now() < deadline; ) await Bun.sleep(25)
    expect(oldTab.closed?.code).toBe(4001)
    colleagueTab.close()
  })

  test('messages never cross companies', async () => {
    const first = await makeTenant(context)
    const second = await makeTenant(context)
    const secondAdmin = await openSocket(baseUrl, second.adminToken)
    context.deps.realtime.publish({ companyId: first.company.id, channel: 'whatsapp', data: { action: 'update' }, audience: { kind: 'company' } })
    const firstAdmin = await openSocket(baseUrl, first.adminToken)
    context.deps.realtime.publish({ companyId: first.company.id, channel: 'whatsapp', data: { action: 'update' }, audience: { kind: 'company' } })
    await firstAdmin.next((frame) => frame.channel === `company-${first.company.id}-whatsapp`)
    await secondAdmin.settle()
    expect(secondAdmin.frames.filter((frame) => frame.channel)).toEqual([])
    firstAdmin.close()
    secondAdmin.close()
  })
})

describe.skipIf(!process.env.REDIS_URL)('several instances over Redis', () => {
  test('an event raised on one instance reaches a socket on another, once', async () => {
    const Redis = (await import('ioredis')).default
    const { createApp } = await import('../../src/app.ts')
    const { createDeps } = await import('../../src/modules/deps.ts')
    const config = { ...context.deps.config, redisPrefix: `zapdesk-test-${process.pid}-${Date.now()}:` }
    const connections = [new Redis(process.env.REDIS_URL!), new Redis(process.env.REDIS_URL!)]
    const instances = connections.map((redis) => {
      const deps = createDeps({ db: context.db, config, redis, logger: context.deps.logger })
      return { deps, app: createApp(deps).listen({ port: 0, hostname: '127.0.0.1' }) }
    })
    try {
      const tenant = await makeTenant(context)
      const [first, second] = instances as [(typeof instances)[number], (typeof instances)[number]]
      const onSecond = await openSocket(`http://127.0.0.1:${second.app.server!.port}`, tenant.adminToken)
      // Both instances' Redis subscriptions are in place before publishing (a message sent before one is lost).
      const channel = `${config.redisPrefix}realtime`
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; await Bun.sleep(20)) {
        const [, subscribers] = (await connections[0]!.pubsub('NUMSUB', channel)) as [string, number]
        if (Number(subscribers) >= instances.length) break
      }
      first.deps.realtime.publish({ companyId: tenant.company.id, channel: 'whatsapp', data: { action: 'update', n: 1 }, audience: { kind: 'company' } })
      const frame = await onSecond.next((candidate) => candidate.channel === `company-${tenant.company.id}-whatsapp`)
      expect(frame.data).toEqual({ action: 'update', n: 1 })
      await Bun.sleep(200)
      expect(onSecond.frames.filter((candidate) => candidate.channel?.endsWith('-whatsapp'))).toHaveLength(1)
      onSecond.close()
    } finally {
      for (const instance of instances) {
        await instance.app.stop(true)
        await instance.deps.realtime.close()
      }
      for (const redis of connections) await redis.quit()
    }
  })
})
