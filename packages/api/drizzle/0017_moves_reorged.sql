ALTER TABLE "transfers_home" ADD COLUMN "mined_block" bigint;--> statement-breakpoint
ALTER TABLE "transfers_home" ADD COLUMN "mined_block_hash" text;--> statement-breakpoint
CREATE INDEX "transfers_home_mined_idx" ON "transfers_home" USING btree ("mined_block") WHERE "transfers_home"."status" = 'confirmed' and "transfers_home"."mined_block" is not null;