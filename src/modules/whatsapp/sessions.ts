// /whatsappsession/{id}: the buttons of the connections page (§4): start or retry, new QR, disconnect.
// Each answers the session as recorded right after the action; what follows (the QR code, CONNECTED)
// arrives on the company's whatsappSession channel.
import type { ConnectionManager } from '../../channels/sessions/manager.ts'
import type { WhatsappSession } from './model.ts'
import { toSession } from './shapes.ts'

type Scope = { companyId: number; whatsappId: number }

export async function startSession(connections: ConnectionManager, scope: Scope): Promise<WhatsappSession> {
  return toSession(await connections.restart(scope))
}

export async function renewQrCode(connections: ConnectionManager, scope: Scope): Promise<WhatsappSession> {
  return toSession(await connections.newQr(scope))
}

export async function disconnectSession(connections: ConnectionManager, scope: Scope): Promise<WhatsappSession> {
  return toSession(await connections.stop(scope))
}
