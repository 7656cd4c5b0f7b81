// The subset of Engine.IO 4 and Socket.IO 5 that /socket.io speaks, as pure text in and out. One
// websocket message is one Engine.IO packet: a type digit then its data; a "message" packet (4)
// carries a Socket.IO packet: a type digit, an optional "/namespace,", an optional ack id and JSON.
//   server: 0{"sid",...} (open)   2 (ping)   40{"sid"} (connected)   44{"message"} (refused)   42["event",data]
//   client: 3 (pong)   40 or 40{"token"} (connect)   41 (disconnect)   42["joinTickets","open"]   421[...] (with ack)
// Binary packets (Socket.IO types 5 and 6, or binary websocket messages) are not supported: no client
// event of ours carries bytes.

/** Engine.IO packet types, by their wire digit. */
const engineTypes = { '0': 'open', '1': 'close', '2': 'ping', '3': 'pong', '4': 'message', '5': 'upgrade', '6': 'noop' } as const
type EngineType = (typeof engineTypes)[keyof typeof engineTypes]

export type EnginePacket = { type: EngineType; data: string }

/** Engine.IO's handshake values, sent in the open packet. */
export type EngineHandshake = { sid: string; pingInterval: number; pingTimeout: number; maxPayload: number }

export const ENGINE_PING = '2'
export const ENGINE_PONG = '3'

/** The namespace every Whaticket-family client connects to; the only one served. */
export const MAIN_NAMESPACE = '/'

export type SocketIoPacket =
  | { type: 'connect'; namespace: string; data: unknown }
  | { type: 'disconnect'; namespace: string }
  | { type: 'event'; namespace: string; ackId?: number; name: string; args: unknown[] }
  | { type: 'ack'; namespace: string; ackId: number; args: unknown[] }
  | { type: 'binary'; namespace: string }

export function decodeEnginePacket(text: string): EnginePacket | undefined {
  const type = engineTypes[text.charAt(0) as keyof typeof engineTypes]
  return type ? { type, data: text.slice(1) } : undefined
}

export function encodeOpen(handshake: EngineHandshake): string {
  return `0${JSON.stringify({ sid: handshake.sid, upgrades: [], pingInterval: handshake.pingInterval, pingTimeout: handshake.pingTimeout, maxPayload: handshake.maxPayload })}`
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) }
  } catch {
    return undefined
  }
}

/** A Socket.IO packet from the data of an Engine.IO message packet; undefined when malformed. */
export function decodeSocketIoPacket(text: string): SocketIoPacket | undefined {
  const typeDigit = text.charAt(0)
  let rest = text.slice(1)
  let namespace = MAIN_NAMESPACE
  if (typeDigit === '5' || typeDigit === '6') {
    const attachments = /^\d+-/.exec(rest)
    if (!attachments) return undefined
    rest = rest.slice(attachments[0].length)
  }
  if (rest.startsWith('/')) {
    const comma = rest.indexOf(',')
    namespace = comma === -1 ? rest : rest.slice(0, comma)
    rest = comma === -1 ? '' : rest.slice(comma + 1)
  }
  const ackDigits = /^\d+/.exec(rest)?.[0]
  const ackId = ackDigits === undefined ? undefined : Number(ackDigits)
  if (ackDigits !== undefined) rest = rest.slice(ackDigits.length)
  if (ackId !== undefined && !Number.isSafeInteger(ackId)) return undefined
  switch (typeDigit) {
    case '0': {
      if (rest === '') return { type: 'connect', namespace, data: undefined }
      const payload = parseJson(rest)
      return payload && (payload.value === null || typeof payload.value === 'object') ? { type: 'connect', namespace, data: payload.value } : undefined
    }
    case '1':
      return { type: 'disconnect', namespace }
    case '2': {
      const payload = parseJson(rest)
      if (!payload || !Array.isArray(payload.value) || typeof payload.value[0] !== 'string') return undefined
      const [name, ...args] = payload.value as [string, ...unknown[]]
      return ackId === undefined ? { type: 'event', namespace, name, args } : { type: 'event', namespace, ackId, name, args }
    }
    case '3': {
      const payload = parseJson(rest)
      if (ackId === undefined || !payload || !Array.isArray(payload.value)) return undefined
      return { type: 'ack', namespace, ackId, args: payload.value }
    }
    case '5':
    case '6':
      return { type: 'binary', namespace }
    default:
      return undefined
  }
}

/** "/chat," before a packet's data, nothing for the main namespace. */
function namespacePrefix(namespace: string): string {
  return namespace === MAIN_NAMESPACE ? '' : `${namespace},`
}

/** The namespace is joined: 40{"sid"} (the Socket.IO session id, not the Engine.IO one). */
export function encodeConnected(sid: string): string {
  return `40${JSON.stringify({ sid })}`
}

/** The connection to a namespace is refused: the client emits connect_error with this message (and data). */
export function encodeConnectError(message: string, data?: unknown, namespace: string = MAIN_NAMESPACE): string {
  return `44${namespacePrefix(namespace)}${JSON.stringify(data === undefined ? { message } : { message, data })}`
}

/** The server ends the namespace's session: the client does not reconnect by itself ("io server disconnect"). */
export function encodeDisconnect(namespace: string = MAIN_NAMESPACE): string {
  return `41${namespacePrefix(namespace)}`
}

/** An event: the client's socket.on(name, ...args) runs. */
export function encodeEvent(name: string, ...args: unknown[]): string {
  return `42${JSON.stringify([name, ...args])}`
}

/** The answer to an event the client sent with an acknowledgement callback. */
export function encodeAck(ackId: number, args: unknown[]): string {
  return `43${ackId}${JSON.stringify(args)}`
}
