// A TCP proxy a test controls: forwards 127.0.0.1:<port> to a target (PostgreSQL) until cut, when every
// open connection is torn down and the port stops listening (new connections are refused: the database
// is gone); restore listens on the same port again.
import { createConnection, createServer, type Socket } from 'node:net'

export type TcpProxy = {
  readonly port: number
  /** The URL with the proxy's host and port in place of the target's. */
  through(url: string): string
  cut(): Promise<void>
  restore(): Promise<void>
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let open = true
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = createServer((client) => {
    track(client)
    if (!open) return client.destroy()
    const upstream = createConnection(target)
    track(upstream)
    client.pipe(upstream)
    upstream.pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  const listen = (at: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(at, '127.0.0.1', () => resolve()))
  await listen(0)
  const port = (server.address() as { port: number }).port
  const proxy: TcpProxy = {
    port,
    through(url) {
      const parsed = new URL(url)
      parsed.hostname = '127.0.0.1'
      parsed.port = String(port)
      return parsed.toString()
    },
    async cut() {
      open = false
      for (const socket of sockets) socket.destroy()
      if (server.listening) await new Promise((resolve) => server.close(resolve))
    },
    async restore() {
      open = true
      if (!server.listening) await listen(port)
    },
    close: () => proxy.cut(),
  }
  return proxy
}
