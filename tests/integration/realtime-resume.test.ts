// Realtime after a drop (issue 11, item 11): frames carry an id per company; a client that reconnects
// sends the last id it saw and gets what it missed (by the same audience rules), or a resync frame when
// that is no longer kept.
import { describe, expect, test } from 'bun:test'
import { REPLAY_FRAMES } from '../../src/core/realtime/replay.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeTenant } from '../helpers/factories.ts'
import { eventIdOf, openSocket } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()

const publish = (companyId: number, data: unknown, audience: { kind: 'company' } | { kind: 'admins' } = { kind: 'company' }) =>
  context.deps.realtime.publish({ companyId, channel: 'tag', data, audience })

const idOf = eventIdOf

describe('resuming after a reconnect', () => {
  test('each frame of a company carries an id; a client resuming from its last id gets what it missed, as its audience allows', async () => {
    const tenant = await makeTenant(context)
    const channel = `company-${tenant.company.id}-tag`
    const first = await openSocket(baseUrl, tenant.agentToken)
    publish(tenant.company.id, { n: 1 })
    const seen = await first.next((frame) => frame.channel === channel)
    expect(idOf(seen)).toMatch(/^\d+-\d+$/)
    first.close()
    publish(tenant.company.id, { n: 2 })
    publish(tenant.company.id, { n: 3, adminsOnly: true }, { kind: 'admins' })
    publish(tenant.company.id, { n: 4 })
    // Reconnecting at once: some of these may still be on their way through Redis, and must come once.
    const again = await openSocket(baseUrl, tenant.agentToken, { lastEventId: idOf(seen) })
    await again.next((frame) => frame.channel === channel && (frame.data as { n: number }).n === 4)
    publish(tenant.company.id, { n: 5 })
    await again.next((frame) => frame.channel === channel && (frame.data as { n: number }).n === 5)
    const replayed = again.frames.filter((frame) => frame.channel === channel)
    expect(replayed.map((frame) => frame.data)).toEqual([{ n: 2 }, { n: 4 }, { n: 5 }])
    const ids = replayed.map((frame) => idOf(frame)!)
    expect(new Set(ids).size).toBe(3)
    expect(again.frames.some((frame) => frame.channel?.endsWith('-resync'))).toBe(false)
    again.close()
  })

  test("the replay waits for the rooms the client joins again on open: a room's frames missed meanwhile are replayed", async () => {
    const tenant = await makeTenant(context)
    const channel = `company-${tenant.company.id}-tag`
    const inRoom = (data: unknown) => context.deps.realtime.publish({ companyId: tenant.company.id, channel: 'tag', data, audience: { kind: 'company' }, rooms: ['notification'] })
    const first = await openSocket(baseUrl, tenant.agentToken)
    first.send('joinNotification')
    await first.settle()
    inRoom({ n: 1 })
    const seen = await first.next((frame) => frame.channel === channel)
    first.close()
    inRoom({ n: 2 })
    // Let it reach the stream before the reconnect (the bus may be Redis).
    const watcher = await openSocket(baseUrl, tenant.adminToken)
    watcher.send('joinNotification')
    await watcher.settle()
    inRoom({ n: 3 })
    await watcher.next((frame) => frame.channel === channel && (frame.data as { n: number }).n === 3)
    watcher.close()
    // As web/api/socket.ts does: the joins go out once the socket is open, a moment after it.
    const again = await openSocket(baseUrl, tenant.agentToken, { lastEventId: idOf(seen) })
    await Bun.sleep(50)
    again.send('joinNotification')
    await again.next((frame) => frame.channel === channel && (frame.data as { n: number }).n === 3)
    expect(again.frames.filter((frame) => frame.channel === channel).map((frame) => frame.data)).toEqual([{ n: 2 }, { n: 3 }])
    again.close()
  })

  test('a client too far behind is told to resync', async () => {
    const tenant = await makeTenant(context)
    const channel = `company-${tenant.company.id}-tag`
    const first = await openSocket(baseUrl, tenant.agentToken)
    publish(tenant.company.id, { n: 0 })
    const seen = await first.next((frame) => frame.channel === channel)
    first.close()
    const watcher = await openSocket(baseUrl, tenant.adminToken)
    for (let n = 1; n <= REPLAY_FRAMES + 5; n += 1) publish(tenant.company.id, { n })
    // Every message went out before resuming (the bus may be Redis).
    await watcher.next((frame) => frame.channel === channel && (frame.data as { n: number }).n === REPLAY_FRAMES + 5, 30_000)
    watcher.close()
    const again = await openSocket(baseUrl, tenant.agentToken, { lastEventId: idOf(seen) })
    const resync = await again.next((frame) => frame.channel === `company-${tenant.company.id}-resync`)
    expect(resync.data).toEqual({ reason: 'behind' })
    expect(again.frames.filter((frame) => frame.channel === channel)).toEqual([])
    again.close()
  }, 60_000)

  test('a client that sees a gap while connected may resume with a frame; an unknown id gets a resync, a non-string an error', async () => {
    const tenant = await makeTenant(context)
    const socket = await openSocket(baseUrl, tenant.agentToken)
    socket.send('resume', '1-1')
    expect((await socket.next((frame) => frame.channel === `company-${tenant.company.id}-resync`)).data).toEqual({ reason: 'behind' })
    socket.send('resume', 42)
    expect((await socket.next((frame) => frame.event === 'error')).data).toEqual({ error: 'ERR_VALIDATION', event: 'resume' })
    socket.close()
  })
})

/** A TCP proxy to Redis that the test can cut (every connection dropped, new ones refused) and restore. */
async function redisProxy(target: URL) {
  const net = await import('node:net')
  let cut = false
  const open = new Set<import('node:net').Socket>()
  const server = net.createServer((client) => {
    if (cut) return void client.destroy()
    const upstream = net.connect(Number(target.port || 6379), target.hostname)
    for (const socket of [client, upstream]) {
      open.add(socket)
      socket.on('close', () => open.delete(socket))
      socket.on('error', () => socket.destroy())
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `redis://127.0.0.1:${port}`,
    cut() {
      cut = true
      for (const socket of open) socket.destroy()
    },
    restore() {
      cut = false
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe.skipIf(!process.env.REDIS_URL)('realtime through a Redis outage', () => {
  test('frames published while Redis is out are not lost silently: the sockets are told to resync', async () => {
    const Redis = (await import('ioredis')).default
    const { createApp } = await import('../../src/app.ts')
    const { createDeps } = await import('../../src/modules/deps.ts')
    const proxy = await redisProxy(new URL(process.env.REDIS_URL!))
    const redis = new Redis(proxy.url, { maxRetriesPerRequest: null })
    const deps = createDeps({ db: context.db, config: context.deps.config, redis, logger: context.deps.logger })
    const app = createApp(deps).listen({ port: 0, hostname: '127.0.0.1' })
    try {
      const tenant = await makeTenant(context)
      const socket = await openSocket(`http://127.0.0.1:${app.server!.port}`, tenant.agentToken)
      const channel = `company-${tenant.company.id}-tag`
      // The instance hears its own publishes once subscribed.
      for (let attempt = 0; !socket.frames.some((frame) => frame.channel === channel) && attempt < 100; attempt += 1) {
        deps.realtime.publish({ companyId: tenant.company.id, channel: 'tag', data: { n: 0 }, audience: { kind: 'company' } })
        await Bun.sleep(100)
      }
      proxy.cut()
      await Bun.sleep(300)
      deps.realtime.publish({ companyId: tenant.company.id, channel: 'tag', data: { n: 1 }, audience: { kind: 'company' } })
      await Bun.sleep(1_000)
      proxy.restore()
      const resync = await socket.next((frame) => frame.channel === `company-${tenant.company.id}-resync`, 30_000)
      expect(resync.data).toEqual({ reason: 'outage' })
      socket.close()
    } finally {
      await app.stop(true)
      await deps.realtime.close()
      redis.disconnect()
      await proxy.close()
    }
  }, 60_000)
})
