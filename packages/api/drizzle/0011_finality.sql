ALTER TABLE "claims" ADD COLUMN "mined_block_hash" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "finalized_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "collectibles" ADD COLUMN "mined_block_hash" text;--> statement-breakpoint
ALTER TABLE "collectibles" ADD COLUMN "finalized_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "claims_unfinalized_idx" ON "claims" USING btree ("mined_block") WHERE "claims"."mined_block" is not null and "claims"."finalized_at" is null and "claims"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "collectibles_unfinalized_idx" ON "collectibles" USING btree ("mined_block") WHERE "collectibles"."mined_block" is not null and "collectibles"."finalized_at" is null and "collectibles"."status" <> 'failed';