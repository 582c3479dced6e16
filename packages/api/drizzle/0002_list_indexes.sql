DROP INDEX "claims_created_at_id_idx";--> statement-breakpoint
DROP INDEX "users_created_at_id_idx";--> statement-breakpoint
CREATE INDEX "claims_page_idx" ON "claims" USING btree ("created_at","id","collectible_id");--> statement-breakpoint
CREATE INDEX "users_active_page_idx" ON "users" USING btree ("created_at","id","organization_id") WHERE "users"."is_active";