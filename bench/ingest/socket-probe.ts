// An agent's browser tab as the benchmark sees it: a websocket joined to the notification room that
// counts the appMessage "create" frames it gets and, for the admin, notes when each benchmark message
// arrived. Frames are matched on their text, not parsed: the probes share the process with the
// pipeline under test and must cost it as little as possible.

export type SocketProbe = {
  readonly label: string
  /** appMessage create frames received. */
  readonly created: number
  /** Every frame received (ticket, contact and appMessage channels). */
  readonly frames: number
  /** Called with the benchmark tag and sequence number of each message frame, on arrival. */
  onMessage?: (phase: string, sequence: number, at: number) => void
  close(): void
}

/** The body the benchmark gives message `sequence` of a phase: "zb:<phase>:<sequence> <text>". */
export function benchmarkBody(phase: string, sequence: number): string {
  return `zb:${phase}:${sequence} Olá, gostaria de saber o status do meu pedido, por favor.`
}

const bodyPattern = /"body":"zb:([a-z]+):(\d+) /

export async function openSocketProbe(baseUrl: string, token: string, companyId: number, label: string): Promise<SocketProbe> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`)
  // A frame is {"channel":...,"id":"<resume id>","data":{"action":...}}: the id's length varies.
  const prefix = `{"channel":"company-${companyId}-appMessage","id":"`
  const action = '","data":{"action":"create"'
  let ready: (() => void) | undefined
  const probe: SocketProbe & { created: number; frames: number } = {
    label,
    created: 0,
    frames: 0,
    close: () => socket.close(),
  }
  socket.addEventListener('message', (event) => {
    const at = performance.now()
    const text = String(event.data)
    probe.frames++
    if (text.startsWith('{"event":"ready"')) ready?.()
    if (!text.startsWith(prefix) || !text.startsWith(action, text.indexOf('"', prefix.length))) return
    probe.created++
    if (!probe.onMessage) return
    const match = bodyPattern.exec(text)
    if (match) probe.onMessage(match[1]!, Number(match[2]), at)
  })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label}: no "ready" frame within 5 s`)), 5000)
    ready = () => {
      clearTimeout(timer)
      resolve()
    }
    socket.addEventListener('error', () => reject(new Error(`${label}: websocket could not connect`)), { once: true })
  })
  socket.send(JSON.stringify({ event: 'joinNotification' }))
  return probe
}
