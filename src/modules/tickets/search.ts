// The ticket search (searchParam) as SQL that indexes serve at any size:
// - the contact's name: ILIKE '%text%', served by the trigram index contacts_name_trgm_idx;
// - the contact's number, when the text is a number: its digits, ILIKE on contacts_number_trgm_idx;
// - the words of the ticket's messages: full-text search with exactly the expression of the GIN
//   index messages_body_fts_idx, to_tsvector('simple', body), so that the planner can use it.
// Together they are one array of ticket ids (ticket id = any(matches)), never a LIKE over every message.
import { and, eq, ilike, or, sql, type SQL } from 'drizzle-orm'
import { union } from 'drizzle-orm/pg-core'
import { contacts, messages, tickets } from '../../../db/schema/index.ts'
import type { Executor } from '../../../db/client.ts'
import { containsPattern } from '../../core/sql.ts'

/** Digits when the text reads as a phone number ("+55 (11) 98765-4321"), else undefined. */
export function numberDigits(text: string): string | undefined {
  if (!/^[\d\s()+\-.]+$/.test(text)) return undefined
  const digits = text.replace(/\D/g, '')
  return digits.length > 0 ? digits : undefined
}

/**
 * The text search over a company's tickets. The 'simple' configuration must stay a literal: the
 * planner matches the query's expression against the index's, and a bound parameter would not match.
 */
export function messageTextMatches(text: string): SQL {
  return sql`to_tsvector('simple', ${messages.body}) @@ plainto_tsquery('simple', ${text})`
}

export function ticketSearchCondition(db: Executor, input: { companyId: number; text: string }): SQL | undefined {
  const text = input.text.trim()
  if (text === '') return undefined
  const digits = numberDigits(text)
  const matchingContacts = db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.companyId, input.companyId), or(ilike(contacts.name, containsPattern(text)), digits ? ilike(contacts.number, containsPattern(digits)) : undefined)))
  // By contact id (tickets_contact_idx) from the matching contacts, as an array for the same reason as below.
  const ticketsOfMatchingContacts = db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.companyId, input.companyId), sql`${tickets.contactId} = any(array(${matchingContacts}))`))
  const ticketsWithMatchingMessages = db
    .select({ id: messages.ticketId })
    .from(messages)
    .where(and(eq(messages.companyId, input.companyId), messageTextMatches(text), eq(messages.isDeleted, false)))
  // The matches as one array, computed first (an InitPlan), then their tickets fetched by primary key:
  // the work follows the number of matches. As an IN (semi-join) the planner, which cannot tell how
  // many messages a word matches, often hashed the matches and read every ticket of the company.
  return sql`${tickets.id} = any(array(${union(ticketsOfMatchingContacts, ticketsWithMatchingMessages)}))`
}
