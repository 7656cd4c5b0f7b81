ALTER TABLE "messages" DROP CONSTRAINT "messages_company_id_companies_id_fk";--> statement-breakpoint
-- Hand-written below: what the inbound batch (modules/messages/inbound-store-batch.ts, one statement
-- for many messages) paid per message or per statement and did not need to. Replayed alone against a
-- probe database, 16 and 64 messages a statement, the PostgreSQL CPU per message went down by about a
-- tenth (bench/README.md, "session 14").
--
-- 1. The foreign key above: a message's company was checked three times (its own key, and the
-- composite keys to its ticket and its contact); the ticket's key says it already, and a company's
-- deletion reaches its messages through their tickets (ON DELETE CASCADE on both).
--
-- 2. The copy of a ticket's list columns to its tags' rows (0024_ticket_tags_list_columns), once per
-- statement instead of once per row: every stored message moves its ticket's updated_at, so the row
-- trigger ran a PL/pgSQL call and an UPDATE for every message of a batch (~20 µs each), tagged ticket
-- or not. Now one UPDATE over the statement's changed tickets. Their ids go in again as an array so
-- that ticket_tags is read through its primary key whatever the plan (the plan is made once per
-- connection, with the size of the first statement's changes).
DROP TRIGGER "tickets_copy_to_ticket_tags" ON "tickets";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "tickets_copy_to_ticket_tags"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ticket_tags" tt
    SET "ticket_status" = n."status", "ticket_queue_id" = n."queue_id", "ticket_user_id" = n."user_id", "ticket_updated_at" = n."updated_at"
    FROM "changed_tickets" n
    WHERE tt."ticket_id" = n."id"
      AND tt."ticket_id" = ANY (ARRAY(SELECT c."id" FROM "changed_tickets" c))
      AND (tt."ticket_status", tt."ticket_queue_id", tt."ticket_user_id", tt."ticket_updated_at")
          IS DISTINCT FROM (n."status", n."queue_id", n."user_id", n."updated_at");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "tickets_copy_to_ticket_tags" AFTER UPDATE ON "tickets"
REFERENCING NEW TABLE AS "changed_tickets" FOR EACH STATEMENT EXECUTE FUNCTION "tickets_copy_to_ticket_tags"();--> statement-breakpoint
-- 3. search_fold() and search_words() (0025, 0026) were STRICT around a body that is not (a CASE), and
-- PostgreSQL inlines such an SQL function only when the body is strict too: the trigger that writes a
-- message's search words called them as functions, and every statement parsed and planned their
-- bodies again (~80 µs a statement). Without STRICT they are inlined into the trigger's cached plan.
-- A NULL still gives NULL: lower(NULL) is NULL, so is every function the body calls on it.
CREATE OR REPLACE FUNCTION search_fold(body text) RETURNS text LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
  SELECT CASE
    WHEN body ~ '^[\x01-\x7f]*$' THEN lower(body)
    ELSE regexp_replace(
      translate(lower(body), 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ', 'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuuccnnyyy'),
      '[\u0300-\u036f]+', '', 'g')
  END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_words(body text) RETURNS text[] LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
  SELECT tsvector_to_array(to_tsvector('simple'::regconfig, search_fold(body)))
$$;
