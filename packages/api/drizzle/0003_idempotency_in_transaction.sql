ALTER TABLE "idempotency_keys" ADD COLUMN "object_location" text;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP COLUMN "locked_at";