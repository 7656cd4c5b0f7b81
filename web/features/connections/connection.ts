// A connection as the page holds it (§3), and how the realtime channels change the list (§7 Realtime):
// `whatsapp` replaces a row wholesale (update) or drops it (delete); `whatsappSession` replaces only
// status, qrcode, pairingCode, retries, number and updatedAt (§4). Dates stay the wire's ISO strings.
import type { Whatsapp, WhatsappSession } from '../../../src/modules/whatsapp/model.ts'
import type { Wire } from '../../../src/contracts/realtime.ts'

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

/**
 * The `whatsapp` channel never carries the QR code nor the pairing code (agents hear it too): a row
 * replaced from it keeps the codes it had, and the `whatsappSession` update that follows brings new ones.
 */
export function upsertConnection(connections: Connection[], incoming: Connection): Connection[] {
  const current = connections.find((connection) => connection.id === incoming.id)
  const merged = current
    ? { ...incoming, qrcode: incoming.qrcode ?? current.qrcode, pairingCode: incoming.pairingCode ?? current.pairingCode }
    : incoming
  return sortConnections([...connections.filter((connection) => connection.id !== incoming.id), merged])
}

export function removeConnection(connections: Connection[], whatsappId: number): Connection[] {
  return connections.filter((connection) => connection.id !== whatsappId)
}

/** A session update for a connection the list does not hold (created elsewhere, not yet listed) is dropped. */
export function applySession(connections: Connection[], session: SessionUpdate): Connection[] {
  return connections.map((connection) =>
    connection.id === session.id
      ? {
          ...connection,
          status: session.status,
          qrcode: session.qrcode,
          pairingCode: session.pairingCode,
          retries: session.retries,
          number: session.number,
          updatedAt: session.updatedAt,
        }
      : connection,
  )
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
