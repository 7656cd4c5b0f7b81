import { describe, expect, test } from 'bun:test'
import { createKeyedExecutor } from './keyed-executor.ts'

const tick = (ms: number) => Bun.sleep(ms)

describe('createKeyedExecutor', () => {
  test('runs the tasks of one key in order, even when later ones are faster', async () => {
    const executor = createKeyedExecutor()
    const done: number[] = []
    await Promise.all(
      [30, 1, 10, 0].map((delay, index) =>
        executor.run('a', async () => {
          await tick(delay)
          done.push(index)
        }),
      ),
    )
    expect(done).toEqual([0, 1, 2, 3])
    expect(executor.size()).toBe(0)
  })

  test('runs different keys concurrently', async () => {
    const executor = createKeyedExecutor()
    const events: string[] = []
    const slow = executor.run('a', async () => {
      events.push('a start')
      await tick(30)
      events.push('a end')
    })
    const fast = executor.run('b', async () => {
      events.push('b start')
      events.push('b end')
    })
    await Promise.all([slow, fast])
    expect(events.indexOf('b end')).toBeLessThan(events.indexOf('a end'))
  })

  test('a failing task rejects its own promise and does not stop the next', async () => {
    const executor = createKeyedExecutor()
    const failing = executor.run('a', async () => {
      throw new Error('boom')
    })
    const next = executor.run('a', async () => 'ok')
    await expect(failing).rejects.toThrow('boom')
    expect(await next).toBe('ok')
  })

  test('says whether a key is busy, and forgets idle keys', async () => {
    const executor = createKeyedExecutor()
    let release = () => {}
    const running = executor.run('a', () => new Promise<void>((resolve) => (release = resolve)))
    expect(executor.busy('a')).toBe(true)
    expect(executor.busy('b')).toBe(false)
    // The task starts on the next microtask, once the (empty) chain before it has settled.
    await tick(0)
    release()
    await running
    await tick(0)
    expect(executor.busy('a')).toBe(false)
  })
})
