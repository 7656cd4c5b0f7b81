// The sessions' side of the whatsapps table, for the connection manager (channels/sessions): the state a
// provider reports, and what resumes at boot. The manager reaches the table only through these.
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Executor } from '../../../db/client.ts'
import { whatsapps, type ConnectionStatus } from '../../../db/schema/whatsapps.ts'
import type { ConnectionRef, ConnectionState } from '../../channels/provider.ts'

/** Connections that were up (or on their way up) when the process stopped: they resume at boot. */
export const RESUMABLE_STATUSES: readonly ConnectionStatus[] = ['CONNECTED', 'OPENING', 'PAIRING', 'qrcode']

export type StoredSession = {
  id: number
  companyId: number
  name: string
  status: ConnectionStatus
  qrcode: string
  pairingCode: string
  retries: number
  number: string
  provider: string
  updatedAt: Date
}

const sessionColumns = {
  id: whatsapps.id,
  companyId: whatsapps.companyId,
  name: whatsapps.name,
  status: whatsapps.status,
  qrcode: whatsapps.qrcode,
  pairingCode: whatsapps.pairingCode,
  retries: whatsapps.retries,
  number: whatsapps.number,
  provider: whatsapps.provider,
  updatedAt: whatsapps.updatedAt,
}

/**
 * §4: a session update replaces status, updatedAt, qrcode and retries; the number is kept until a new
 * one is reported. Each code lives only in its own status (the QR code in 'qrcode', the pairing code in
 * PAIRING): any other state clears it, so a used or expired code is never shown again.
 * Undefined when the connection is gone (deleted meanwhile).
 */
export async function saveSessionState(db: Executor, connection: ConnectionRef, state: ConnectionState, now: Date): Promise<StoredSession | undefined> {
  const [row] = await db
    .update(whatsapps)
    .set({
      status: state.status,
      qrcode: state.status === 'qrcode' ? (state.qrcode ?? '') : '',
      pairingCode: state.status === 'PAIRING' ? (state.pairingCode ?? '') : '',
      retries: state.retries ?? 0,
      number: state.number,
      updatedAt: now,
    })
    .where(and(eq(whatsapps.companyId, connection.companyId), eq(whatsapps.id, connection.whatsappId)))
    .returning(sessionColumns)
  return row
}

export async function findStoredSession(db: Executor, connection: ConnectionRef): Promise<StoredSession | undefined> {
  const [row] = await db
    .select(sessionColumns)
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, connection.companyId), eq(whatsapps.id, connection.whatsappId)))
    .limit(1)
  return row
}

export type ResumableSession = ConnectionRef & { status: ConnectionStatus }

/**
 * Every company's connections that should be live, oldest first: resumed at boot and, scaled out,
 * adopted when their owner died. A sweep across companies, hence no company filter.
 */
export async function findResumableSessions(db: Executor): Promise<ResumableSession[]> {
  const rows = await db
    .select({ whatsappId: whatsapps.id, companyId: whatsapps.companyId, status: whatsapps.status })
    .from(whatsapps)
    .where(inArray(whatsapps.status, [...RESUMABLE_STATUSES]))
    .orderBy(asc(whatsapps.id))
  return rows
}
