// The session link's requests when the instance stops while one is leaving: the caller is told the
// owner is unreachable, and nothing is left rejected without a handler (Bun ends the process on an
// unhandled rejection: a graceful stop exited 1 in the failover test when close() rejected a request
// whose PUBLISH had not returned yet).
import { afterEach, describe, expect, test } from 'bun:test'
import type Redis from 'ioredis'
import { createRedisSessionLink, OwnerUnreachableError } from './rpc.ts'

function fakeRedis() {
  let release: ((listeners: number) => void) | undefined
  let published: (() => void) | undefined
  const publishing = new Promise<void>((resolve) => (published = resolve))
  const commands = {
    publish: () =>
      new Promise<number>((resolve) => {
        release = resolve
        published?.()
      }),
    quit: async () => 'OK',
  }
  const subscriber = { on: () => subscriber, subscribe: async () => 1, quit: async () => 'OK' }
  return {
    connections: { commands: commands as unknown as Redis, subscriber: subscriber as unknown as Redis },
    publishing,
    releasePublish: (listeners: number) => release?.(listeners),
  }
}

const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
process.on('unhandledRejection', onUnhandled)
afterEach(() => {
  unhandled.length = 0
})

describe('a request under way when the link closes', () => {
  test('its caller gets OwnerUnreachableError, and no rejection goes unhandled', async () => {
    const redis = fakeRedis()
    const link = createRedisSessionLink({ open: async () => redis.connections, prefix: 't:', instanceId: 'me', timeoutMs: 60_000 })
    const calling = link.call('owner', { ask: 1 })
    const outcome = calling.then(
      () => 'answered',
      (error: unknown) => error,
    )
    await redis.publishing
    await link.close()
    // A turn of the event loop: an unhandled rejection is reported by then.
    await new Promise((resolve) => setTimeout(resolve, 20))
    redis.releasePublish(1)
    expect(await outcome).toBeInstanceOf(OwnerUnreachableError)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(unhandled).toEqual([])
  })
})
