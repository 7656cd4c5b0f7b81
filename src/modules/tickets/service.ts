// What other modules may read of tickets (rows, the lock of the rating flow, the contacts a tag reaches); the use cases live in
// their own files (create.ts, transitions.ts, ...), the SQL in queries.ts, which only tickets imports.
import type { Deps } from '../deps.ts'
import { findTaggedContactsAfter } from './queries.ts'

export { findContactRow, findTicketRow, lockTicketRow } from './queries.ts'
export { seesAllOpenTicketsOfContact } from './viewer.ts'
export { closeTicketAsPlatform } from './transitions.ts'

/** Contacts per page of listContactsWithTaggedTickets. */
export const TAGGED_CONTACTS_PAGE = 1000

/** People with a ticket carrying the tag, keyset-paged by contact id (pass the last id of the previous page). */
export async function listContactsWithTaggedTickets(deps: Pick<Deps, 'db'>, scope: { companyId: number; tagId: number; afterContactId?: number; limit?: number }) {
  return findTaggedContactsAfter(deps.db, { ...scope, limit: Math.min(scope.limit ?? TAGGED_CONTACTS_PAGE, TAGGED_CONTACTS_PAGE) })
}
