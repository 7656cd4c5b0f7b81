import { describe, expect, test } from 'bun:test'
import { EventBus } from './events.ts'

type Events = { 'thing.changed': { id: number } }

describe('committing listeners (stage)', () => {
  test('run in order with the transaction; synchronous ones allocate no promise; the payload is marked staged', async () => {
    const bus = new EventBus<Events, string>()
    const seen: string[] = []
    bus.onCommitting('thing.changed', (tx, payload) => {
      seen.push(`sync ${tx} ${payload.id}`)
    })
    const payload = { id: 1 }
    expect(bus.stage('tx-1', 'thing.changed', payload)).toBeUndefined()
    expect(bus.wasStaged(payload)).toBe(true)
    expect(bus.wasStaged({ id: 1 })).toBe(false)

    bus.onCommitting('thing.changed', async (tx) => {
      await Bun.sleep(1)
      seen.push(`async ${tx}`)
    })
    bus.onCommitting('thing.changed', (tx) => {
      seen.push(`last ${tx}`)
    })
    await bus.stage('tx-2', 'thing.changed', { id: 2 })
    expect(seen).toEqual(['sync tx-1 1', 'sync tx-2 2', 'async tx-2', 'last tx-2'])
  })

  test('a failing committing listener reaches the caller (its transaction rolls back) and stops the rest', async () => {
    const bus = new EventBus<Events, string>()
    const seen: string[] = []
    bus.onCommitting('thing.changed', async () => {
      throw new Error('outbox down')
    })
    bus.onCommitting('thing.changed', () => {
      seen.push('after')
    })
    await expect(bus.stage('tx', 'thing.changed', { id: 3 }) as Promise<void>).rejects.toThrow('outbox down')
    await Bun.sleep(5)
    expect(seen).toEqual([])
    const sync = new EventBus<Events, string>()
    sync.onCommitting('thing.changed', () => {
      throw new Error('refused')
    })
    expect(() => sync.stage('tx', 'thing.changed', { id: 4 })).toThrow('refused')
  })

  test('post-commit listeners are not run by stage; emit runs them as before', () => {
    const bus = new EventBus<Events, string>()
    const seen: number[] = []
    bus.on('thing.changed', (payload) => {
      seen.push(payload.id)
    })
    const payload = { id: 5 }
    bus.stage('tx', 'thing.changed', payload)
    expect(seen).toEqual([])
    bus.emit('thing.changed', payload)
    expect(seen).toEqual([5])
  })
})
