// Review finding (2026-11-22): closing a ticket the bot is still talking in leaves an open attendance.
import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { ticketTracking, tickets } from '../../db/schema/index.ts'
import { createTestContext } from '../helpers/context.ts'
import { makeConnection, makeContact, makeTenant, makeTicket } from '../helpers/factories.ts'

const context = await createTestContext()

describe('review: ticket tracking when an agent closes a bot conversation', () => {
  // Fails until src/modules/tickets/transitions.ts records the bot's end before the close (see the review report).
  test('the close finishes the one attendance: no open tracking row is left behind', async () => {
    const tenant = await makeTenant(context)
    const companyId = tenant.company.id
    const connection = await makeConnection(context.db, { companyId, isDefault: true })
    const contact = await makeContact(context.db, { companyId })
    const ticket = await makeTicket(context.db, { companyId, contactId: contact.id, whatsappId: connection.id })
    // The bot is still asking the customer to choose a queue.
    await context.db.update(tickets).set({ chatbot: true }).where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticket.id)))
    const closed = await tenant.asAdmin.api.tickets({ id: ticket.id }).put({ status: 'closed' })
    expect(closed.status).toBe(200)
    const rows = await context.db.select().from(ticketTracking).where(and(eq(ticketTracking.companyId, companyId), eq(ticketTracking.ticketId, ticket.id)))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.finishedAt).not.toBeNull()
    expect(rows[0]!.chatbotEndedAt).not.toBeNull()
  })
})
