// Through Redis, every instance's subscribers get a company's frames in the order of their ids, even
// when several instances publish at once (core/realtime/bus.ts: the stream id and the publish in one
// script). A client resumes from the last id it saw; had a later id arrived before an earlier one, the
// resume from the earlier one would replay the later one a second time (seen in the failover test).
import { afterAll, describe, expect, test } from 'bun:test'
import Redis from 'ioredis'
import { createRedisRealtimeBus, type RealtimeMessage } from '../../src/core/realtime/bus.ts'
import { parseEventId } from '../../src/core/realtime/replay.ts'

const url = process.env.REDIS_URL
const channel = `zapdesk-test-order-${process.pid}-${Math.random().toString(36).slice(2)}:realtime`
const connections: Redis[] = []
afterAll(async () => {
  const [first] = connections
  if (first) {
    const keys = await first.keys(`${channel}*`)
    if (keys.length > 0) await first.del(...keys)
  }
  for (const connection of connections) await connection.quit()
})

const before = (a: string, b: string) => {
  const [x, y] = [parseEventId(a)!, parseEventId(b)!]
  return x.epoch < y.epoch || (x.epoch === y.epoch && x.sequence < y.sequence)
}

describe.skipIf(!url)('realtime through Redis', () => {
  test('three instances publishing one company’s frames at once: every subscriber gets them in id order', async () => {
    const open = () => {
      const connection = new Redis(url!, { maxRetriesPerRequest: null })
      connections.push(connection)
      return createRedisRealtimeBus(connection, { channel, onError: (error) => console.error(error) })
    }
    const publishers = [open(), open(), open()]
    const listener = open()
    const seen: string[] = []
    let probed = false
    listener.subscribe((message: RealtimeMessage) => {
      if (message.companyId === 8) probed = true
      else if (message.id) seen.push(message.id)
    })
    // The listener's subscription is live before the first counted publish: a probe (another company)
    // is published until it arrives. A fixed 50 ms wait was not enough on a loaded CI machine (the
    // first round's 3 frames went out before the SUBSCRIBE: 1,197 of 1,200 seen).
    for (const deadline = Date.now() + 10_000; !probed && Date.now() < deadline; await Bun.sleep(20)) {
      publishers[0]!.publish({ companyId: 8, channel: 'appMessage', data: { probe: true }, audience: { kind: 'company' } })
    }
    expect(probed).toBe(true)
    const perPublisher = 400
    for (let round = 0; round < perPublisher; round++) {
      for (const [index, bus] of publishers.entries()) bus.publish({ companyId: 7, channel: 'appMessage', data: { round, index }, audience: { kind: 'company' } })
      if (round % 50 === 0) await Bun.sleep(0)
    }
    const total = perPublisher * publishers.length
    for (const deadline = Date.now() + 10_000; seen.length < total && Date.now() < deadline; ) await Bun.sleep(10)
    expect(seen).toHaveLength(total)
    const inversions = seen.filter((id, index) => index > 0 && before(id, seen[index - 1]!)).length
    expect(inversions).toBe(0)
    for (const bus of [...publishers, listener]) await bus.close()
  })
})
