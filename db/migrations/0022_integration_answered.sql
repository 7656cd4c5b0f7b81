ALTER TABLE "integration_sessions" ADD COLUMN "answered_message_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Sessions claimed before this column existed count as ended (the sweep must not hand them over).
UPDATE "integration_sessions" SET "answered_message_id" = "last_message_id";