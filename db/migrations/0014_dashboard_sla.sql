DROP INDEX "ticket_tracking_company_created_idx";--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_first_response_minutes" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_resolution_minutes" integer;--> statement-breakpoint
CREATE INDEX "user_ratings_company_created_idx" ON "user_ratings" USING btree ("company_id","created_at","user_id","rate","ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_tracking_company_created_idx" ON "ticket_tracking" USING btree ("company_id","created_at","user_id","queue_id","queued_at","started_at","finished_at","ticket_id");