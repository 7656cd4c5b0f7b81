// A websocket client for tests: collects frames and waits for the one a test expects.
export type Frame = { channel?: string; event?: string; data?: unknown }

export type TestSocket = Awaited<ReturnType<typeof openSocket>>

export async function openSocket(baseUrl: string, token: string) {
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`
  const socket = new WebSocket(url)
  const frames: Frame[] = []
  const waiters: { match: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = []
  let closed: { code: number; reason: string } | undefined
  socket.addEventListener('message', (event) => {
    const frame = JSON.parse(String(event.data)) as Frame
    frames.push(frame)
    for (const waiter of [...waiters]) {
      if (waiter.match(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(frame)
      }
    }
  })
  socket.addEventListener('close', (event) => {
    closed = { code: event.code, reason: event.reason }
  })
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true })
    socket.addEventListener('error', () => reject(new Error('websocket could not connect')), { once: true })
  })
  const client = {
    frames,
    get closed() {
      return closed
    },
    send(event: string, data?: unknown) {
      socket.send(JSON.stringify({ event, data }))
    },
    /** The first frame (already received or to come) that matches, or a timeout error. */
    next(match: (frame: Frame) => boolean, timeoutMs = 3000): Promise<Frame> {
      const seen = frames.find(match)
      if (seen) return Promise.resolve(seen)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`)), timeoutMs)
        waiters.push({ match, resolve: (frame) => (clearTimeout(timer), resolve(frame)) })
      })
    },
    /** Resolves after the frames already in flight have arrived: a round trip through the server. */
    async settle(): Promise<void> {
      await Bun.sleep(50)
    },
    close() {
      socket.close()
    },
  }
  await client.next((frame) => frame.event === 'ready')
  return client
}
