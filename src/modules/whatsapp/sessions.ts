// /whatsappsession/{id}: the buttons of the connections page (§4): start or retry, new QR, pairing by
// phone number, disconnect. Each answers the session as recorded right after the action; what follows
// (the QR code, the pairing code, CONNECTED) arrives on the company's whatsappSession channel.
import type { SessionControls } from '../../channels/provider.ts'
import { AppError } from '../../core/errors.ts'
import type { WhatsappSession } from './model.ts'
import { toSession } from './shapes.ts'

type Scope = { companyId: number; whatsappId: number }

export async function startSession(connections: SessionControls, scope: Scope): Promise<WhatsappSession> {
  return toSession(await connections.restart(scope))
}

export async function renewQrCode(connections: SessionControls, scope: Scope): Promise<WhatsappSession> {
  return toSession(await connections.newQr(scope))
}

const pairingNumberRule = 'number must be the phone number with its country code: 10 to 15 digits'

/**
 * The digits WhatsApp wants for a pairing code (country code first, no '+'), from the number as people
 * write it: '+55 (11) 98765-4321'. Only '+', spaces, dashes and parentheses are set aside; anything
 * else is refused, and so is a leading 0 (a trunk or international prefix, not a country code).
 */
export function pairingDigits(number: string): string {
  const digits = number.replace(/[+\s()-]/g, '')
  if (!/^[1-9]\d{9,14}$/.test(digits)) throw new AppError('ERR_VALIDATION', { fields: [{ field: 'number', message: pairingNumberRule }] })
  return digits
}

/** Forgets the pairing (as a new QR does) and starts pairing by code with that phone. */
export async function requestPairingCode(connections: SessionControls, scope: Scope, number: string): Promise<WhatsappSession> {
  const digits = pairingDigits(number)
  return toSession(await connections.pairWithPhone(scope, digits))
}

export async function disconnectSession(connections: SessionControls, scope: Scope): Promise<WhatsappSession> {
  return toSession(await connections.stop(scope))
}
