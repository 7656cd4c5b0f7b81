// GET /tickets/{id} and /tickets/u/{uuid}: one ticket, if the caller may see it. Another company's
// ticket does not exist for him (404); one of his company he may not see is 403 ERR_NO_PERMISSION,
// which the web client shows as 'Acesso não permitido'.
import type { Deps } from '../deps.ts'
import { AppError } from '../../core/errors.ts'
import { viewerOf, type TicketCaller } from './list.ts'
import { findTicketIdByUuid } from './queries.ts'
import { findTicketView, type TicketView } from './view.ts'
import { canSeeTicket } from './visibility.ts'

export async function showTicket(deps: Deps, caller: TicketCaller, ticketId: number): Promise<TicketView> {
  const ticket = await findTicketView(deps.db, { companyId: caller.companyId, ticketId })
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND')
  if (!canSeeTicket(await viewerOf(deps, caller), ticket)) throw new AppError('ERR_NO_PERMISSION')
  return ticket
}

export async function showTicketByUuid(deps: Deps, caller: TicketCaller, uuid: string): Promise<TicketView> {
  const ticketId = await findTicketIdByUuid(deps.db, { companyId: caller.companyId, uuid: uuid.toLowerCase() })
  if (ticketId === undefined) throw new AppError('ERR_NO_TICKET_FOUND')
  return showTicket(deps, caller, ticketId)
}
