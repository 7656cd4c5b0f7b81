// A connection as the page holds it (§3), and how the realtime channels change the list (§7 Realtime):
// `whatsapp` replaces a row wholesale (update) or drops it (delete); `whatsappSession` replaces only
// status, qrcode, pairingCode, retries, number and updatedAt (§4). Dates stay the wire's ISO strings.
import type { Whatsapp, WhatsappSession } from '../../../src/modules/whatsapp/model.ts'
import type { ChannelFrame, Wire } from '../../../src/contracts/realtime.ts'

export type Connection = Omit<Whatsapp, 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string }
export type ConnectionStatus = Whatsapp['status']
export type SessionUpdate = Omit<WhatsappSession, 'updatedAt'> & { updatedAt: string }


/** Eden hands dates through untouched (parseDate off), but the types say Date: normalise either. */
const isoOf = (value: unknown): string => (typeof value === 'string' ? value : new Date(value as Date).toISOString())

export function toConnection(whatsapp: Whatsapp | Wire<Whatsapp>): Connection {
  return { ...whatsapp, createdAt: isoOf(whatsapp.createdAt), updatedAt: isoOf(whatsapp.updatedAt) }
}

export function toSessionUpdate(session: WhatsappSession | Wire<WhatsappSession>): SessionUpdate {
  return { ...session, updatedAt: isoOf(session.updatedAt) }
}

/** The server lists connections by name; a live insert keeps that order. */
export function sortConnections(connections: Connection[]): Connection[] {
  return connections.slice().sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
}

const newer = (a: string, b: string): boolean => Date.parse(a) > Date.parse(b)

/** The fields a session update owns (§4). */
function sessionOf(connection: Connection): SessionUpdate {
  const { id, status, qrcode, pairingCode, retries, number, updatedAt } = connection
  return { id, status, qrcode: qrcode ?? '', pairingCode: pairingCode ?? '', retries, number, updatedAt }
}

/**
 * A row's session fields as of the newer of the two: the row and the session update come by different
 * paths (a request's answer, the `whatsapp` channel, the `whatsappSession` channel), and a row read
 * before the QR code arrived can reach the page after it. Each write of the row stamps updatedAt.
 */
export function withNewerSession(connection: Connection, session: SessionUpdate | undefined): Connection {
  if (!session || session.id !== connection.id || !newer(session.updatedAt, connection.updatedAt)) return connection
  return { ...connection, ...session }
}

/**
 * The `whatsapp` channel never carries the QR code nor the pairing code (agents hear it too): a row
 * replaced from it keeps the codes it had, and the `whatsappSession` update that follows brings new ones.
 * Its other fields replace the row's; its session fields only if it is not older than what the list holds.
 */
export function upsertConnection(connections: Connection[], incoming: Connection): Connection[] {
  const current = connections.find((connection) => connection.id === incoming.id)
  const merged = current
    ? withNewerSession({ ...incoming, qrcode: incoming.qrcode ?? current.qrcode, pairingCode: incoming.pairingCode ?? current.pairingCode }, sessionOf(current))
    : incoming
  return sortConnections([...connections.filter((connection) => connection.id !== incoming.id), merged])
}

export function removeConnection(connections: Connection[], whatsappId: number): Connection[] {
  return connections.filter((connection) => connection.id !== whatsappId)
}

/**
 * A session update older than the row is dropped (a request's answer overtaken by the channel). One for
 * a connection the list does not hold yet changes nothing here: useConnections keeps it for the row.
 */
export function applySession(connections: Connection[], session: SessionUpdate): Connection[] {
  return connections.map((connection) => (connection.id === session.id && !newer(connection.updatedAt, session.updatedAt) ? { ...connection, ...session } : connection))
}

/** §2 side menu: a connection needs attention when it is not CONNECTED. */
export function needsAttention(connections: Pick<Connection, 'status'>[]): boolean {
  return connections.some((connection) => connection.status !== 'CONNECTED')
}

const two = (value: number) => String(value).padStart(2, '0')

/** §2: last update as dd/MM/yyyy HH:mm, in the browser's time zone. */
export function formatLastUpdate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${date.getFullYear()} ${two(date.getHours())}:${two(date.getMinutes())}`
}

type WhatsappFrame = ChannelFrame<'whatsapp'>
/** A frame of the `whatsapp` channel as the menu's badge reads it: a connection removed, or its new status. */
export type ConnectionFrame =
  | Extract<WhatsappFrame, { action: 'delete' }>
  | { action: 'update'; whatsapp: Pick<Extract<WhatsappFrame, { action: 'update' }>['whatsapp'], 'id' | 'status'> }

/** The statuses of the company's connections after one frame (the badge's state). */
export function withConnectionFrame(statuses: Map<number, ConnectionStatus>, frame: ConnectionFrame): Map<number, ConnectionStatus> {
  const next = new Map(statuses)
  if (frame.action === 'delete') next.delete(frame.whatsappId)
  else next.set(frame.whatsapp.id, frame.whatsapp.status)
  return next
}
