// What other modules may read of tickets (rows, the lock of the rating flow); the use cases live in
// their own files (create.ts, transitions.ts, ...), the SQL in queries.ts, which only tickets imports.
export { findContactRow, findTicketRow, lockTicketRow } from './queries.ts'
export { seesAllOpenTicketsOfContact } from './viewer.ts'
export { closeTicketAsPlatform } from './transitions.ts'
