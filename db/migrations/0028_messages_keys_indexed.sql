-- The foreign keys' ON DELETE actions on messages had no index to find their rows (migration 0027's
-- session found it: 20 deleted messages spent 98 ms in the quoted key's trigger on a 40,000-message
-- database, a sequential scan each):
-- - quoted_msg_id -> messages (SET NULL) runs once per deleted message (a ticket's deletion, the
--   retention job, an erasure): each read the whole table. Partial: most messages quote nothing, so
--   storing an inbound message writes no entry.
-- - (company_id, contact_id) -> contacts (SET NULL) read every message of the company per deleted
--   contact. (company_id, contact_id) replaces (company_id) alone: same size of entry, and what read
--   by company alone reads its prefix.
CREATE INDEX "messages_company_contact_idx" ON "messages" USING btree ("company_id","contact_id");--> statement-breakpoint
CREATE INDEX "messages_quoted_msg_idx" ON "messages" USING btree ("quoted_msg_id") WHERE "messages"."quoted_msg_id" is not null;--> statement-breakpoint
DROP INDEX "messages_company_idx";
