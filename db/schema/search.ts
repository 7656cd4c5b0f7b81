// The words of each ticket's messages, for the ticket search: one row per (company, word, ticket),
// kept by triggers on messages (migration 0025_ticket_words: inserts, edits, deletes, soft deletes).
// A word is a lexeme of to_tsvector('simple', ...) over the body with its accents folded
// (search_words(), an IMMUTABLE SQL function of the migration), so "reembolsó" is stored as
// "reembolso" and "Não" as "nao". The key's order answers a search from the index alone: a word,
// or every word beginning with a prefix (a range of "C"-collated text), gives its ticket ids, never
// reading a message. Deleted messages' words are not kept.
import { customType, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core'

/** Byte-ordered text: a prefix is a range of the index whatever the database's collation. */
const byteOrderedText = customType<{ data: string }>({ dataType: () => 'text collate "C"' })

export const ticketWords = pgTable(
  'ticket_words',
  {
    companyId: integer().notNull(),
    word: byteOrderedText().notNull(),
    ticketId: integer().notNull(),
  },
  // No foreign keys: a row lives as long as a live message of its ticket holds the word, and the
  // triggers remove it with the message (a ticket's or a company's deletion cascades to its
  // messages, whose delete trigger runs). A key check per new word would double the write.
  (table) => [primaryKey({ name: 'ticket_words_pkey', columns: [table.companyId, table.word, table.ticketId] })],
)
