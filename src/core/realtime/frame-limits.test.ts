import { describe, expect, test } from 'bun:test'
import { createFrameMeter, createHeartbeatGate, FLOOD_DROPS, FRAME_BURST, FRAMES_PER_SECOND, joinRoom, MAX_TICKET_ROOMS } from './frame-limits.ts'

describe('frame limits', () => {
  test('a burst passes, then frames refill at their rate; a flood closes', () => {
    let now = 0
    const meter = createFrameMeter(() => now)
    for (let frame = 0; frame < FRAME_BURST; frame += 1) expect(meter.take()).toBe('accept')
    expect(meter.take()).toBe('drop')
    now += 1000 / FRAMES_PER_SECOND
    expect(meter.take()).toBe('accept')
    const verdicts = Array.from({ length: FLOOD_DROPS + 1 }, () => meter.take())
    expect(verdicts.at(-1)).toBe('close')
  })

  test('ticket rooms are capped, the oldest leaving first; other rooms stay', () => {
    const rooms = new Set<string>(['notification', 'status:open'])
    for (let ticketId = 1; ticketId <= MAX_TICKET_ROOMS + 3; ticketId += 1) joinRoom(rooms, `ticket:${ticketId}`)
    expect([...rooms].filter((room) => room.startsWith('ticket:'))).toHaveLength(MAX_TICKET_ROOMS)
    expect(rooms.has('ticket:1')).toBe(false)
    expect(rooms.has('ticket:4')).toBe(true)
    expect(rooms.has('notification') && rooms.has('status:open')).toBe(true)
  })

  test('one heartbeat write per user per interval', () => {
    let now = 0
    const gate = createHeartbeatGate(() => now, 30_000)
    expect(gate.shouldWrite(1, 7)).toBe(true)
    expect(gate.shouldWrite(1, 7)).toBe(false)
    expect(gate.shouldWrite(2, 7)).toBe(true)
    now += 30_000
    expect(gate.shouldWrite(1, 7)).toBe(true)
  })
})
