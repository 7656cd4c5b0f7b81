// An inbound message as the spool keeps it: JSON, bytes as base64 (the form the raw message is stored
// in anyway, modules/messages/storable.ts). The media's download is code, not data: a message read
// back after a restart has its media's description but cannot fetch the bytes (the pipeline stores it
// without its file and logs ERR_WAPP_DOWNLOAD_MEDIA). While the process lives, the retries use the
// original message, download included.
import type { ConnectionRef, InboundMessage } from '../provider.ts'

export type SpooledMessage = { connection: ConnectionRef; message: InboundMessage }

type StoredForm = {
  c: [number, number]
  m: Omit<InboundMessage, 'timestamp' | 'media'> & { timestamp: string; media?: { mimetype: string; fileName?: string } }
}

const isSerialisedBuffer = (value: unknown): value is { type: 'Buffer'; data: number[] } =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64')
  if (isSerialisedBuffer(value)) return Buffer.from(value.data).toString('base64')
  if (typeof value === 'bigint') return value.toString()
  return value
}

export function encodeSpooledMessage(connection: ConnectionRef, message: InboundMessage): string {
  const { media, timestamp, ...rest } = message
  const form: StoredForm = {
    c: [connection.companyId, connection.whatsappId],
    m: { ...rest, timestamp: timestamp instanceof Date && !Number.isNaN(timestamp.getTime()) ? timestamp.toISOString() : '' },
  }
  if (media) form.m.media = { mimetype: media.mimetype, fileName: media.fileName }
  try {
    return JSON.stringify(form, replacer)
  } catch {
    // A raw message that cannot be serialised: the message itself is kept without it.
    return JSON.stringify({ ...form, m: { ...form.m, raw: undefined } }, replacer)
  }
}

const mediaGone = () => Promise.reject(new Error('the media of a message replayed from the spool cannot be fetched after a restart'))

export function decodeSpooledMessage(entry: string): SpooledMessage {
  const form = JSON.parse(entry) as StoredForm
  const { media, timestamp, ...rest } = form.m
  const message: InboundMessage = { ...rest, timestamp: timestamp ? new Date(timestamp) : new Date(Number.NaN) }
  if (media) message.media = { mimetype: media.mimetype, fileName: media.fileName, download: mediaGone }
  return { connection: { companyId: form.c[0], whatsappId: form.c[1] }, message }
}
