// An agent's browser tab as web/api/socket.ts behaves, for the scale-out tests: a websocket joined to the
// notification room that, when its instance goes away, reconnects to another one with ?lastEventId= (the
// last frame id it saw) and joins again on open; the server replays what it missed or says `resync`.
// It keeps the body of every appMessage "create" frame it got (a message stored twice, or a frame sent
// twice, shows as a body counted twice).

export type ResumingAgent = {
  readonly label: string
  /** appMessage create frames received, by message body. */
  readonly bodies: Map<string, number>
  /** `resync` frames received (the server could not replay what was missed). */
  readonly resyncs: number
  /** How many times it connected again after its socket closed. */
  readonly reconnects: number
  /** The base URL it is connected to (or reconnecting from). */
  readonly url: string
  close(): void
}

/**
 * pickUrl: where to reconnect, given the URL that went away (another instance that is up); tried again
 * every 100 ms until a socket opens.
 */
export async function openResumingAgent(options: { label: string; url: string; token: string; companyId: number; pickUrl: (lost: string) => string | undefined }): Promise<ResumingAgent> {
  const { label, token, companyId } = options
  const bodies = new Map<string, number>()
  const resyncChannel = `company-${companyId}-resync`
  const messageChannel = `company-${companyId}-appMessage`
  let lastEventId: string | undefined
  let resyncs = 0
  let reconnects = 0
  let url = options.url
  let closing = false
  let socket: WebSocket | undefined

  const connect = (target: string) =>
    new Promise<void>((resolve, reject) => {
      const address = new URL(`${target.replace(/^http/, 'ws')}/ws`)
      address.searchParams.set('token', token)
      if (lastEventId) address.searchParams.set('lastEventId', lastEventId)
      const next = new WebSocket(address.toString())
      let ready = false
      next.addEventListener('open', () => next.send(JSON.stringify({ event: 'joinNotification' })))
      next.addEventListener('message', (event) => {
        const frame = JSON.parse(String(event.data)) as { id?: string; event?: string; channel?: string; data?: { action?: string; message?: { body?: string } } }
        if (frame.event === 'ready' && !ready) {
          ready = true
          resolve()
          return
        }
        if (typeof frame.id === 'string') lastEventId = frame.id
        if (frame.channel === resyncChannel) resyncs += 1
        if (frame.channel === messageChannel && frame.data?.action === 'create') {
          const body = frame.data.message?.body ?? ''
          bodies.set(body, (bodies.get(body) ?? 0) + 1)
        }
      })
      next.addEventListener('close', () => {
        if (!ready) reject(new Error(`${label}: the socket to ${target} closed before ready`))
        else if (!closing && socket === next) void reconnect(target)
      })
      socket = next
    })

  async function reconnect(lost: string): Promise<void> {
    while (!closing) {
      const target = options.pickUrl(lost)
      if (target) {
        try {
          await connect(target)
          url = target
          reconnects += 1
          return
        } catch {
          // That one is going away too, or not listening yet.
        }
      }
      await Bun.sleep(100)
    }
  }

  await connect(url)
  return {
    label,
    bodies,
    get resyncs() {
      return resyncs
    },
    get reconnects() {
      return reconnects
    },
    get url() {
      return url
    },
    close() {
      closing = true
      socket?.close()
    },
  }
}
