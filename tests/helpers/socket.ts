// A websocket client for tests: collects frames and waits for the one a test expects.
export type Frame = { channel?: string; event?: string; data?: unknown }

export type TestSocket = Awaited<ReturnType<typeof openSocket>>

// A frame's event id (README "Realtime") is kept beside it: tests compare frames by channel and data.
const eventIds = new WeakMap<Frame, string>()

/** The id the server gave a numbered frame (where a reconnect resumes), if any. */
export function eventIdOf(frame: Frame): string | undefined {
  return eventIds.get(frame)
}

/** The event of a settle() probe: the server answers an unknown event with an error frame naming it. */
const PROBE_PREFIX = 'testSettleProbe'
let probes = 0

/** options.lastEventId: reconnect resuming from that event (the server replays what was missed). */
export async function openSocket(baseUrl: string, token: string, options: { lastEventId?: string } = {}) {
  const resume = options.lastEventId === undefined ? '' : `&lastEventId=${encodeURIComponent(options.lastEventId)}`
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}${resume}`
  const socket = new WebSocket(url)
  const frames: Frame[] = []
  const waiters: { match: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = []
  const probeAnswers = new Map<string, () => void>()
  let closed: { code: number; reason: string } | undefined
  socket.addEventListener('message', (event) => {
    const { id, ...frame } = JSON.parse(String(event.data)) as Frame & { id?: unknown }
    if (typeof id === 'string') eventIds.set(frame, id)
    // A probe's answer is the harness's business, not one of the frames a test looks at.
    const probe = frame.event === 'error' ? (frame.data as { event?: unknown } | undefined)?.event : undefined
    if (typeof probe === 'string' && probe.startsWith(PROBE_PREFIX)) {
      probeAnswers.get(probe)?.()
      return
    }
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
    /** The first frame (already received or to come) that matches, or a timeout error (generous: CI is a loaded two-core machine). */
    next(match: (frame: Frame) => boolean, timeoutMs = 15_000): Promise<Frame> {
      const seen = frames.find(match)
      if (seen) return Promise.resolve(seen)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`)), timeoutMs)
        waiters.push({ match, resolve: (frame) => (clearTimeout(timer), resolve(frame)) })
      })
    },
    /**
     * A round trip through the server: resolves once the server has handled every frame this client sent
     * before (a join is in effect, however loaded the machine). Frames the server had queued for this
     * socket by then leave within the same turn of its event loop; the short pause after covers them
     * (a test about frames published by the bus settles the bus first: settleRealtime(context)).
     */
    async settle(): Promise<void> {
      const probe = `${PROBE_PREFIX}${++probes}`
      let timer: ReturnType<typeof setTimeout> | undefined
      try {
        await new Promise<void>((resolve, reject) => {
          probeAnswers.set(probe, resolve)
          timer = setTimeout(() => reject(new Error(`the server did not answer a settle probe within 15 s; got ${JSON.stringify(frames)}`)), 15_000)
          socket.send(JSON.stringify({ event: probe }))
        })
      } finally {
        clearTimeout(timer)
        probeAnswers.delete(probe)
      }
      await Bun.sleep(50)
    },
    close() {
      socket.close()
    },
  }
  await client.next((frame) => frame.event === 'ready')
  return client
}
