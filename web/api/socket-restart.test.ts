// 1012 "service restart" (the instance is stopping: a deploy, a rolling restart): the client reconnects
// within a second every time, its backoff not growing, and resumes from its last event id. Driven
// with a stand-in WebSocket.
import { afterAll, expect, test } from 'bun:test'
import { RealtimeSocket, SERVICE_RESTART_CODE } from './socket.ts'

type Handler = (event: { code?: number; data?: unknown }) => void

class FakeWebSocket {
  static readonly OPEN = 1
  static readonly instances: FakeWebSocket[] = []
  readyState = 0
  private readonly handlers = new Map<string, Handler[]>()
  constructor(readonly url: URL) {
    FakeWebSocket.instances.push(this)
  }
  addEventListener(type: string, handler: Handler) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler])
  }
  send() {}
  close() {
    this.readyState = 3
  }
  emit(type: string, event: { code?: number; data?: unknown } = {}) {
    if (type === 'open') this.readyState = 1
    if (type === 'close') this.readyState = 3
    for (const handler of this.handlers.get(type) ?? []) handler(event)
  }
}

const saved = { WebSocket: globalThis.WebSocket, location: globalThis.location }
Object.assign(globalThis, { WebSocket: FakeWebSocket, location: new URL('http://localhost/tickets') })
afterAll(() => Object.assign(globalThis, saved))

const waitFor = async (check: () => boolean, ms: number) => {
  for (const deadline = Date.now() + ms; !check() && Date.now() < deadline; ) await Bun.sleep(5)
  return check()
}

test('closed with 1012 five times in a row: each reconnect comes within about a second, resuming from the last event', async () => {
  const socket = new RealtimeSocket({ companyId: 3, token: async () => 'token', onLoggedOutElsewhere: () => {}, onSessionEnded: () => {} })
  expect(await waitFor(() => FakeWebSocket.instances.length === 1, 2_000)).toBe(true)
  FakeWebSocket.instances[0]!.emit('open')
  FakeWebSocket.instances[0]!.emit('message', { data: JSON.stringify({ channel: 'company-3-ticket', id: '7-41', data: {} }) })
  // A plain drop five times would back off to 16 s; a restart stays within the spread (1 s, plus a loaded machine's lag).
  for (let restart = 1; restart <= 5; restart++) {
    const startedAt = Date.now()
    FakeWebSocket.instances.at(-1)!.emit('close', { code: SERVICE_RESTART_CODE })
    expect(await waitFor(() => FakeWebSocket.instances.length === restart + 1, 3_000)).toBe(true)
    expect(Date.now() - startedAt).toBeLessThan(2_500)
    expect(FakeWebSocket.instances.at(-1)!.url.searchParams.get('lastEventId')).toBe('7-41')
  }
  socket.close()
}, 20_000)

test('closed with 4001 (session ended): no reconnect, the session ends', async () => {
  let ended = 0
  const before = FakeWebSocket.instances.length
  const socket = new RealtimeSocket({ companyId: 3, token: async () => 'token', onLoggedOutElsewhere: () => {}, onSessionEnded: () => (ended += 1) })
  expect(await waitFor(() => FakeWebSocket.instances.length === before + 1, 2_000)).toBe(true)
  FakeWebSocket.instances.at(-1)!.emit('open')
  FakeWebSocket.instances.at(-1)!.emit('close', { code: 4001 })
  expect(ended).toBe(1)
  expect(await waitFor(() => FakeWebSocket.instances.length > before + 1, 1_500)).toBe(false)
  socket.close()
})
