import { describe, expect, test } from 'bun:test'
import { createReplayLog, REPLAY_FRAMES, REPLAY_MS } from './replay.ts'
import type { RealtimeMessage } from './bus.ts'

const message = (companyId: number, n: number): RealtimeMessage => ({ companyId, channel: 'tag', data: { n }, audience: { kind: 'company' } })

describe('the in-process replay log', () => {
  test('numbers each company on its own and replays what follows an id', () => {
    const log = createReplayLog(() => 1_000)
    const first = log.append(message(1, 1))
    log.append(message(2, 1))
    const second = log.append(message(1, 2))
    expect(first.id).toBe('1000-1')
    expect(second.id).toBe('1000-2')
    expect(log.replay(1, first.id!)).toEqual([second])
    expect(log.replay(1, second.id!)).toEqual([])
  })

  test('an id from another process, from the future, trimmed away or expired is a gap', () => {
    let now = 5_000
    const log = createReplayLog(() => now)
    const first = log.append(message(1, 0))
    expect(log.replay(1, '4999-1')).toBe('gap')
    expect(log.replay(1, '5000-9')).toBe('gap')
    expect(log.replay(1, 'nonsense')).toBe('gap')
    // The client saw #1: with #2 to #501 kept it can catch up; once #2 is trimmed away it cannot.
    for (let n = 1; n <= REPLAY_FRAMES; n += 1) log.append(message(1, n))
    expect(log.replay(1, first.id!)).toHaveLength(REPLAY_FRAMES)
    log.append(message(1, REPLAY_FRAMES + 1))
    expect(log.replay(1, first.id!)).toBe('gap')
    const recent = log.append(message(1, -1))
    log.append(message(1, -2))
    expect(log.replay(1, recent.id!)).toHaveLength(1)
    now += REPLAY_MS + 1
    expect(log.replay(1, recent.id!)).toBe('gap')
  })
})
