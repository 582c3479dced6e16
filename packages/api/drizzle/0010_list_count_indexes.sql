CREATE INDEX "claims_updated_at_idx" ON "claims" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "organizations_inactive_idx" ON "organizations" USING btree ("id") WHERE not "organizations"."is_active";--> statement-breakpoint
CREATE INDEX "users_updated_at_idx" ON "users" USING btree ("updated_at");