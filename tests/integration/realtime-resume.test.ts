// Realtime after a drop (issue 11, item 11): frames carry an id per company; a client that reconnects
// sends the last id it saw and gets what it missed (by the same audience rules), or a resync frame when
// that is no longer kept.
import { describe, expect, test } from 'bun:test'
import { REPLAY_FRAMES } from '../../src/core/realtime/replay.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeTenant } from '../helpers/factories.ts'
import { openSocket, type Frame } from '../helpers/socket.ts'

const context = await createTestContext()
const baseUrl = context.listen()

const publish = (companyId: number, data: unknown, audience: { kind: 'company' } | { kind: 'admins' } = { kind: 'company' }) =>
  context.deps.realtime.publish({ companyId, channel: 'tag', data, audience })

const idOf = (frame: Frame) => (frame as Frame & { id?: string }).id

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
