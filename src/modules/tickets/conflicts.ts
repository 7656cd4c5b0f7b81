// ERR_OTHER_OPEN_TICKET (§8): the contact already has a non-closed ticket on that connection. The
// details name it, its user and its queue, so the web client can say who is attending him, or open it
// when it is the caller's own.
import type { Executor } from '../../../db/client.ts'
import { AppError, isUniqueViolation } from '../../core/errors.ts'
import { findOtherOpenTicket } from './queries.ts'

const oneOpenIndex = 'tickets_one_open_per_contact_connection'

export async function assertNoOtherOpenTicket(db: Executor, scope: { companyId: number; contactId: number; whatsappId: number | null; exceptTicketId?: number }): Promise<void> {
  const other = await findOtherOpenTicket(db, scope)
  if (other) throw new AppError('ERR_OTHER_OPEN_TICKET', other)
}

/**
 * Turns a lost race on the partial unique index (another writer opened a ticket for the contact
 * between our check and our write) into the same ERR_OTHER_OPEN_TICKET; other errors pass through.
 */
export async function otherOpenTicketRace(db: Executor, error: unknown, scope: { companyId: number; contactId: number; whatsappId: number | null; exceptTicketId?: number }): Promise<never> {
  if (isUniqueViolation(error, oneOpenIndex)) {
    await assertNoOtherOpenTicket(db, scope)
    throw new AppError('ERR_OTHER_OPEN_TICKET')
  }
  throw error
}
