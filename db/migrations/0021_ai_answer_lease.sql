ALTER TABLE "ai_answers" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ai_answers" ADD COLUMN "claims" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "ai_answers_running_lease_idx" ON "ai_answers" USING btree ("lease_until") WHERE outcome = 'running';--> statement-breakpoint
-- Claims left running before the lease existed expire at their last update (the sweep takes them).
UPDATE "ai_answers" SET "lease_until" = "updated_at" WHERE "outcome" = 'running';