// Sending from other systems with a connection's token (whatsapps.token), not a user's JWT: the
// token says which company and which connection. The number is checked on WhatsApp, the contact and
// the ticket are found or created on that connection, then the message goes out like an agent's.
import { and, eq, isNull, or } from 'drizzle-orm'
import { companies, plans, whatsapps } from '../../../db/schema/index.ts'
import type { ConnectionRegistry } from '../../channels/provider.ts'
import type { Deps } from '../deps.ts'
import { AppError, invalidField } from '../../core/errors.ts'
import { toContactSummary } from '../contacts/contact-row.ts'
import { upsertContact } from '../contacts/inbound-contacts.ts'
import { onlyDigits } from '../contacts/number.ts'
import { ticketMessenger } from '../messages/automatic-send.ts'
import { stageTicketCreated } from '../messages/announce.ts'
import { assertContent, buildItems } from '../messages/service.ts'
import { providerOf, sendToContact } from '../messages/send.ts'
import { findOrCreateOpenTicket } from '../tickets/open-ticket.ts'
import { closeTicketAsPlatform } from '../tickets/service.ts'
import type { ExternalSendBody, ExternalSendResult, TokenConnection } from './model.ts'
import { connectionTokenHash } from '../whatsapp/connection-token.ts'
import { isSubscriptionBlocked, subscriptionGraceDays } from '../../core/subscription.ts'

/** The connection holding this token; 401 for none or an unknown one, 403 when the plan lacks the API. */
export async function authenticateConnectionToken(deps: Pick<Deps, 'db' | 'now' | 'config'>, token: string | undefined): Promise<TokenConnection> {
  if (!token) throw new AppError('ERR_UNAUTHORIZED')
  const [row] = await deps.db
    .select({ whatsappId: whatsapps.id, companyId: whatsapps.companyId, companyStatus: companies.status, dueDate: companies.dueDate, useExternalApi: plans.useExternalApi })
    .from(whatsapps)
    .innerJoin(companies, eq(companies.id, whatsapps.companyId))
    .leftJoin(plans, eq(plans.id, companies.planId))
    // A token still in clear (an older version wrote it during a rolling upgrade; sealed at the next boot) counts too.
    .where(or(eq(whatsapps.tokenHash, connectionTokenHash(deps, token)), and(isNull(whatsapps.tokenHash), eq(whatsapps.token, token))))
    .limit(1)
  if (!row) throw new AppError('ERR_UNAUTHORIZED')
  if (!row.companyStatus) throw new AppError('ERR_COMPANY_INACTIVE')
  if (await isSubscriptionBlocked(deps.db, { id: row.companyId, dueDate: row.dueDate }, deps.now(), await subscriptionGraceDays(deps))) {
    throw new AppError('ERR_SUBSCRIPTION_EXPIRED', { dueDate: row.dueDate })
  }
  if (!row.useExternalApi) throw new AppError('ERR_NO_PERMISSION', { feature: 'useExternalApi' })
  return { companyId: row.companyId, whatsappId: row.whatsappId }
}

/** WhatsApp's canonical digits for the number, or the error the caller must see. */
async function checkedNumber(deps: Deps, registry: ConnectionRegistry, connection: TokenConnection, digits: string): Promise<string> {
  const provider = providerOf(registry, connection)
  let result: { exists: boolean; number: string }
  try {
    result = await provider.checkNumber(digits)
  } catch (error) {
    deps.logger.warn('ERR_WAPP_CHECK_CONTACT', { ...connection, error })
    throw new AppError('ERR_WAPP_CHECK_CONTACT')
  }
  if (!result.exists) throw new AppError('ERR_WAPP_INVALID_CONTACT')
  return onlyDigits(result.number) || digits
}

export async function sendExternalMessage(deps: Deps, registry: ConnectionRegistry, connection: TokenConnection, input: ExternalSendBody): Promise<ExternalSendResult> {
  const digits = onlyDigits(input.number)
  if (digits.length < 8 || digits.length > 20) throw invalidField('number', 'number must have 8 to 20 digits, with country and area code')
  const medias = input.medias ?? []
  assertContent({ body: input.body, medias })
  const number = await checkedNumber(deps, registry, connection, digits)

  const { companyId, whatsappId } = connection
  const now = deps.now()
  const { contact, change, ticket, contactEvent, ticketEvent } = await deps.lanes.run(whatsappId, number, () =>
    deps.db.transaction(async (tx) => {
      const upserted = await upsertContact(tx, { companyId, whatsappId, number, isGroup: false, now })
      const found = await findOrCreateOpenTicket(tx, { companyId, contactId: upserted.contact.id, whatsappId, isGroup: false })
      // The contact's and a new ticket's events staged here: the webhooks' outbox commits with them.
      const contactEvent = upserted.change ? { companyId, contact: toContactSummary(upserted.contact) } : undefined
      if (contactEvent) await deps.bus.stage(tx, upserted.change === 'create' ? 'contact.created' : 'contact.updated', contactEvent)
      const ticketEvent = found.created ? await stageTicketCreated(deps, tx, { companyId, ticketId: found.ticket.id, userId: null }) : undefined
      return { contact: upserted.contact, change: upserted.change, ticket: found.ticket, contactEvent, ticketEvent }
    }),
  )
  if (change && contactEvent) await deps.bus.emit(change === 'create' ? 'contact.created' : 'contact.updated', contactEvent)
  if (ticketEvent) await deps.bus.emit('ticket.created', ticketEvent)

  const items = await buildItems(deps, companyId, { body: input.body, medias })
  const outcome = await sendToContact(deps, registry, {
    target: { companyId, ticketId: ticket.id, whatsappId, contactId: contact.id, number: contact.number, isGroup: false },
    items,
    userId: null,
    source: 'api',
  })
  if (outcome.failedIds.length > 0) throw new AppError('ERR_SENDING_WAPP_MSG', { messageIds: outcome.failedIds })
  // Closed as an agent closes it: the rating question, the dashboard's tracking row, the completion message.
  if (input.closeTicket) await closeTicketAsPlatform(deps, ticketMessenger(deps, registry), { companyId, ticketId: ticket.id })
  return { ticketId: ticket.id, contactId: contact.id, messages: outcome.messages }
}
