// The ticket search (searchParam) as SQL that indexes serve at any size:
// - the contact's name: ILIKE '%text%', served by the trigram index contacts_name_trgm_idx;
// - the contact's number, when the text is a number: its digits, ILIKE on contacts_number_trgm_idx;
// - the words of the ticket's live messages: ticket_words (db/schema/search.ts), one row per
//   (company, word, ticket) kept by triggers on messages. Every word of the text must be in the
//   ticket, whole or (from 3 characters on) as the beginning of a longer word ("reemb" finds
//   "reembolso"), accents folded both ways ("reembolsó" and "reembolso", "não" and "nao" are one
//   word): the text goes through search_words(), the function that made the stored words. Each
//   word is a range of the table's key (company_id, word, ticket_id), so the ticket ids come from
//   the index alone, however many messages hold a common word.
// Together they are one set of ticket ids (ticketSearchMatches), never a LIKE over every message.
import { and, eq, ilike, or, sql, type SQL } from 'drizzle-orm'
import { contacts, tickets } from '../../../db/schema/index.ts'
import type { Executor } from '../../../db/client.ts'
import { containsPattern } from '../../core/sql.ts'

/** Digits when the text reads as a phone number ("+55 (11) 98765-4321"), else undefined. */
export function numberDigits(text: string): string | undefined {
  if (!/^[\d\s()+\-.]+$/.test(text)) return undefined
  const digits = text.replace(/\D/g, '')
  return digits.length > 0 ? digits : undefined
}

/**
 * The ids of the company's tickets whose live messages hold every word of the text, whole or (3
 * characters and more) as a prefix: search_ticket_ids() of migration 0025_ticket_words, which
 * intersects one range of the key of ticket_words per word. It builds that query with the words as
 * literals, so that the planner sizes each range from the statistics (from here they would be
 * parameters, planned blind as a million rows, with JIT compilation to match). A text without words
 * (only punctuation) matches no ticket.
 */
export function ticketsWithMessageWords(companyId: number, text: string): SQL {
  return sql`select ticket_id from search_ticket_ids(${companyId}::int, ${text}::text) as ticket_id`
}

/**
 * The ids of the company's tickets the text matches (by contact name or number, or by the words of
 * their messages), as a query of one column, id; an id may come more than once (union all: making
 * them distinct cost ~20 ms for a common word's 27k, and every reader is a set). Undefined for a
 * blank text: no search.
 */
export function ticketSearchMatches(db: Executor, input: { companyId: number; text: string }): SQL | undefined {
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
  return sql`${ticketsOfMatchingContacts} union all ${ticketsWithMessageWords(input.companyId, text)}`
}

/**
 * The search as a condition on tickets (for a plain page or count; the list itself gives the matches
 * to findTicketIdPageAndCount, which picks how to read them by their number).
 */
export function ticketSearchCondition(db: Executor, input: { companyId: number; text: string }): SQL | undefined {
  const matches = ticketSearchMatches(db, input)
  // The matches as one array, computed first (an InitPlan), then their tickets fetched by primary key:
  // the work follows the number of matches. As an IN (semi-join) the planner, which cannot tell how
  // many tickets a word matches, often hashed the matches and read every ticket of the company.
  return matches && sql`${tickets.id} = any(array(${matches}))`
}
