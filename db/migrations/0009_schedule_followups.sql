ALTER TABLE "schedules" ADD COLUMN "recurrence" text;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "recurrence_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "recurrence_count" integer;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "occurrence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "cancel_on_reply" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "armed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "schedules_reply_watch_idx" ON "schedules" USING btree ("company_id","contact_id") WHERE "schedules"."status" = 'PENDENTE' and "schedules"."cancel_on_reply";