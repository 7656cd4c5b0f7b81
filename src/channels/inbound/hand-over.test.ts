import { describe, expect, test } from 'bun:test'
import { createHandOver } from './hand-over.ts'

const tick = () => new Promise((resolve) => setTimeout(resolve, 1))

describe('hand-over', () => {
  test('starts tasks in order without waiting for the earlier ones to finish', async () => {
    const handOver = createHandOver(10)
    const order: number[] = []
    const gates: (() => void)[] = []
    const started = [1, 2, 3].map((n) =>
      handOver.start(() => {
        order.push(n)
        return new Promise<number>((resolve) => gates.push(() => resolve(n)))
      }),
    )
    const handles = await Promise.all(started)
    expect(order).toEqual([1, 2, 3])
    expect(handOver.inFlight()).toBe(3)
    for (const open of gates.reverse()) open()
    expect(await Promise.all(handles.map((handle) => handle.done))).toEqual([1, 2, 3])
  })

  test('holds the next task back while the limit is in flight', async () => {
    const handOver = createHandOver(2)
    const gates: (() => void)[] = []
    const task = () => new Promise<void>((resolve) => gates.push(resolve))
    await handOver.start(task)
    await handOver.start(task)
    let thirdStarted = false
    const third = handOver.start(() => {
      thirdStarted = true
    })
    await tick()
    expect(thirdStarted).toBe(false)
    gates[0]!()
    await third
    expect(thirdStarted).toBe(true)
    gates[1]!()
    await handOver.idle()
    expect(handOver.inFlight()).toBe(0)
  })

  test('a throwing task rejects its completion and frees its slot', async () => {
    const handOver = createHandOver(1)
    const { done } = await handOver.start(() => {
      throw new Error('boom')
    })
    await expect(done).rejects.toThrow('boom')
    const next = await handOver.start(() => 7)
    expect(await next.done).toBe(7)
  })
})
