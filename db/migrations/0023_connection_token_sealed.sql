DROP INDEX "whatsapps_token_unique";--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "token_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_token_hash_unique" ON "whatsapps" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "whatsapps_clear_token_idx" ON "whatsapps" USING btree ("token") WHERE "whatsapps"."token_hash" is null;