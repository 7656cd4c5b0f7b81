ALTER TABLE "ticket_tags" ADD COLUMN "ticket_status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_tags" ADD COLUMN "ticket_queue_id" integer;--> statement-breakpoint
ALTER TABLE "ticket_tags" ADD COLUMN "ticket_user_id" integer;--> statement-breakpoint
ALTER TABLE "ticket_tags" ADD COLUMN "ticket_updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Hand-written below (drizzle-kit generated the columns above and the index at the end, moved after
-- the copy so that it is built once): the copies of the ticket's columns are the database's to keep.
-- The existing rows, from their tickets:
UPDATE "ticket_tags" tt SET "ticket_status" = t."status", "ticket_queue_id" = t."queue_id", "ticket_user_id" = t."user_id", "ticket_updated_at" = t."updated_at"
FROM "tickets" t WHERE t."id" = tt."ticket_id";--> statement-breakpoint
-- A new row (or one moved to another ticket) copies its ticket's columns, whatever the insert said.
-- FOR SHARE: an update of the ticket running meanwhile is waited for and its result copied (its own
-- trigger, below, cannot see this row before it is committed), and an update that comes later waits
-- for this row and then updates it. The ticket must be the row's company's: the list reads the
-- row's company_id in place of the ticket's.
CREATE OR REPLACE FUNCTION "ticket_tags_copy_ticket"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT t."status", t."queue_id", t."user_id", t."updated_at"
    INTO NEW."ticket_status", NEW."ticket_queue_id", NEW."ticket_user_id", NEW."ticket_updated_at"
    FROM "tickets" t
    WHERE t."id" = NEW."ticket_id" AND t."company_id" = NEW."company_id"
    FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'ticket_tags: ticket % is not a ticket of company %', NEW."ticket_id", NEW."company_id" USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ticket_tags_copy_ticket" BEFORE INSERT OR UPDATE OF "ticket_id", "company_id" ON "ticket_tags"
FOR EACH ROW EXECUTE FUNCTION "ticket_tags_copy_ticket"();--> statement-breakpoint
-- A ticket's change reaches its tags' rows. Any UPDATE (not only one naming the columns: the
-- foreign keys' SET NULL of queue_id and user_id, raw SQL), filtered by WHEN so that the other
-- updates (unread counts, bot state) cost nothing more.
CREATE OR REPLACE FUNCTION "tickets_copy_to_ticket_tags"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ticket_tags"
    SET "ticket_status" = NEW."status", "ticket_queue_id" = NEW."queue_id", "ticket_user_id" = NEW."user_id", "ticket_updated_at" = NEW."updated_at"
    WHERE "ticket_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "tickets_copy_to_ticket_tags" AFTER UPDATE ON "tickets"
FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."queue_id" IS DISTINCT FROM NEW."queue_id" OR OLD."user_id" IS DISTINCT FROM NEW."user_id" OR OLD."updated_at" IS DISTINCT FROM NEW."updated_at")
EXECUTE FUNCTION "tickets_copy_to_ticket_tags"();--> statement-breakpoint
CREATE INDEX "ticket_tags_list_idx" ON "ticket_tags" USING btree ("company_id","tag_id","ticket_updated_at" DESC NULLS LAST,"ticket_id" DESC NULLS LAST,"ticket_status","ticket_queue_id","ticket_user_id");
