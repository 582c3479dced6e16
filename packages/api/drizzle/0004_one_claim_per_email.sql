ALTER TABLE "claims" ADD COLUMN "holder_email" text;--> statement-breakpoint
-- Each existing claim takes its holder's email, except a later claim of a collectible by an email
-- that already claimed it (a user deleted and created again): that one keeps null, since its
-- token exists on-chain and the rule applies from now on.
UPDATE "claims" SET "holder_email" = "users"."email"
FROM "users"
WHERE "users"."id" = "claims"."holder_id"
  AND NOT EXISTS (
    SELECT 1 FROM "claims" AS "earlier"
    JOIN "users" AS "earlier_holder" ON "earlier_holder"."id" = "earlier"."holder_id"
    WHERE "earlier"."collectible_id" = "claims"."collectible_id"
      AND "earlier"."status" <> 'failed'
      AND "claims"."status" <> 'failed'
      AND lower("earlier_holder"."email") = lower("users"."email")
      AND ("earlier"."created_at", "earlier"."id") < ("claims"."created_at", "claims"."id")
  );--> statement-breakpoint
CREATE UNIQUE INDEX "claims_collectible_holder_email_unique" ON "claims" USING btree ("collectible_id",lower("holder_email")) WHERE "claims"."status" <> 'failed';
