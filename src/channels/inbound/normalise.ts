// The provider's message as the pipeline stores it: digits for numbers, text PostgreSQL accepts,
// names that are real names.
import type { InboundMessage } from '../provider.ts'

export type NormalisedMessage = InboundMessage & {
  /** The contact's number: phone digits, or the group id for groups. */
  number: string
  /** The name WhatsApp gave the sender, when it is one (never for our own messages or for a group). */
  senderName?: string
}

export const onlyDigits = (value: string): string => value.replace(/\D/g, '')

/** PostgreSQL text cannot hold NUL characters; WhatsApp text occasionally does. */
export const storableText = (value: string): string => value.replaceAll('\u0000', '')

/** A group id keeps its dash ("5511999-1600000000"); a person is digits only, without a JID's device part. */
export function contactNumberOf(from: string, isGroup: boolean): string {
  const user = (from.split('@')[0] ?? '').split(':')[0] ?? ''
  return isGroup ? user.replace(/[^\d-]/g, '') : onlyDigits(user)
}

/** A display name worth keeping: not empty and not just the number again. */
export function realName(name: string | undefined, number: string): string | undefined {
  const trimmed = storableText(name ?? '').trim()
  if (!trimmed || onlyDigits(trimmed) === number) return undefined
  return trimmed.slice(0, 200)
}

/** The provider's time when it is a real date, else now. */
export function validDate(value: Date | undefined, now: () => Date): Date {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value : now()
}

/** Undefined when the message names no sender we can file it under. */
export function normaliseInbound(message: InboundMessage, now: () => Date = () => new Date()): NormalisedMessage | undefined {
  const number = contactNumberOf(message.from, message.isGroup)
  if (!number || !message.id) return undefined
  // A fromMe pushName is the phone owner's own name, and in a group it is the member's: neither names the contact.
  const senderName = message.fromMe || message.isGroup ? undefined : realName(message.pushName, number)
  const normalised: NormalisedMessage = {
    ...message,
    number,
    body: storableText(message.body ?? ''),
    timestamp: validDate(message.timestamp, now),
  }
  if (senderName) normalised.senderName = senderName
  if (message.participant) normalised.participant = onlyDigits(message.participant)
  return normalised
}

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

const isSerialisedBuffer = (value: unknown): value is { type: 'Buffer'; data: number[] } =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer' && Array.isArray((value as { data?: unknown }).data)

/**
 * The provider's raw message as a JSON value jsonb keeps: bytes become base64 strings, which is how
 * protobuf's JSON form writes them (Baileys' fromObject reads them back as bytes). Undefined when it
 * cannot be serialised; the message itself is never lost over it.
 */
export function storableRaw(raw: unknown): JsonValue | undefined {
  if (raw === undefined || raw === null) return undefined
  try {
    const text = JSON.stringify(raw, (_key, value: unknown) => {
      if (value instanceof Uint8Array) return Buffer.from(value).toString('base64')
      // A Buffer has already been turned into {type: 'Buffer', data: [...]} by its toJSON.
      if (isSerialisedBuffer(value)) return Buffer.from(value.data).toString('base64')
      if (typeof value === 'bigint') return value.toString()
      return value
    })
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue)
  } catch {
    return undefined
  }
}
