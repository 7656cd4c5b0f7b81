// The provider's message as the pipeline stores it: digits for numbers, text PostgreSQL accepts,
// names that are real names.
import { onlyDigits, realName } from '../../modules/contacts/number.ts'
import { storableText } from '../../modules/messages/storable.ts'
import type { InboundMessage } from '../provider.ts'

export type NormalisedMessage = InboundMessage & {
  /** The contact's number: phone digits, or the group id for groups. */
  number: string
  /** The name WhatsApp gave the sender, when it is one (never for our own messages or for a group). */
  senderName?: string
}

/** A group id keeps its dash ("5511999-1600000000"); a person is digits only, without a JID's device part. */
export function contactNumberOf(from: string, isGroup: boolean): string {
  const user = (from.split('@')[0] ?? '').split(':')[0] ?? ''
  return isGroup ? user.replace(/[^\d-]/g, '') : onlyDigits(user)
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
