ALTER TABLE "claims" ADD COLUMN "held_by" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "edition" integer;--> statement-breakpoint
CREATE INDEX "claims_holder_address_idx" ON "claims" USING btree (lower(coalesce("held_by", "minted_to")));