// The list refetches after a reconnect: RealtimeSocket.onReconnect fires on every reconnect (not the
// first connect), after the rooms were joined again. Driven with a stand-in WebSocket.
import { afterAll, expect, test } from 'bun:test'
import { RealtimeSocket } from '../../api/socket.ts'

type Handler = (event: { code?: number; data?: unknown }) => void

class FakeWebSocket {
  static readonly OPEN = 1
  static readonly instances: FakeWebSocket[] = []
  readyState = 0
  readonly sent: string[] = []
  private readonly handlers = new Map<string, Handler[]>()
  constructor(readonly url: URL) {
    FakeWebSocket.instances.push(this)
  }
  addEventListener(type: string, handler: Handler) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler])
  }
  send(data: string) {
    this.sent.push(data)
  }
  close() {
    this.readyState = 3
  }
  emit(type: string, event: { code?: number } = {}) {
    if (type === 'open') this.readyState = 1
    if (type === 'close') this.readyState = 3
    for (const handler of this.handlers.get(type) ?? []) handler(event)
  }
}

const saved = { WebSocket: globalThis.WebSocket, location: globalThis.location }
Object.assign(globalThis, { WebSocket: FakeWebSocket, location: new URL('http://localhost/tickets') })
afterAll(() => Object.assign(globalThis, saved))

// Up to 8 s (the test's limit is 10): the backoff's timer is at most a second, a loaded machine adds to it.
const waitFor = async (check: () => boolean) => {
  for (const deadline = Date.now() + 8_000; !check() && Date.now() < deadline; ) await Bun.sleep(10)
  expect(check()).toBe(true)
}

test('onReconnect: not on the first open; after a drop, once the joins were sent again; unsubscribes', async () => {
  const socket = new RealtimeSocket({ companyId: 3, token: async () => 'token', onLoggedOutElsewhere: () => {}, onSessionEnded: () => {} })
  const calls: string[][] = []
  const stop = socket.onReconnect(() => calls.push([...FakeWebSocket.instances.at(-1)!.sent]))
  await waitFor(() => FakeWebSocket.instances.length === 1)
  const first = FakeWebSocket.instances[0]!
  first.emit('open')
  socket.join('joinTickets', 'pending')
  expect(calls).toEqual([])

  first.emit('close', { code: 1006 })
  // The backoff's first retry comes within a second.
  await waitFor(() => FakeWebSocket.instances.length === 2)
  FakeWebSocket.instances[1]!.emit('open')
  expect(calls.length).toBe(1)
  expect(calls[0]).toContain(JSON.stringify({ event: 'joinTickets', data: 'pending' }))

  stop()
  FakeWebSocket.instances[1]!.emit('close', { code: 1006 })
  await waitFor(() => FakeWebSocket.instances.length === 3)
  FakeWebSocket.instances[2]!.emit('open')
  expect(calls.length).toBe(1)
  socket.close()
}, 10_000)
