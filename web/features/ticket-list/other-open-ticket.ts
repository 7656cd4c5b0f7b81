// ERR_OTHER_OPEN_TICKET (§8) carries the conversation already going on: who has it, in which queue.
import { apiErrorOf } from '../../api/errors.ts'

export type OtherOpenTicket = { ticketId: number; uuid: string; userId: number | null; userName: string | null; queueName: string | null }

/** The details of a 409 ERR_OTHER_OPEN_TICKET answer, or undefined for any other error. */
export function otherOpenTicketOf(error: unknown): OtherOpenTicket | undefined {
  const value = error && typeof error === 'object' ? (error as { value?: unknown }).value : undefined
  if (!value || typeof value !== 'object') return undefined
  const body = value as Record<string, unknown>
  // apiErrorOf reads the code in both forms (ours, and LEGACY_CLIENT_ERRORS' where `error` holds the ticket).
  if (apiErrorOf(error).code !== 'ERR_OTHER_OPEN_TICKET' || typeof body.uuid !== 'string' || typeof body.ticketId !== 'number') return undefined
  return {
    ticketId: body.ticketId,
    uuid: body.uuid,
    userId: typeof body.userId === 'number' ? body.userId : null,
    userName: typeof body.userName === 'string' ? body.userName : null,
    queueName: typeof body.queueName === 'string' ? body.queueName : null,
  }
}
