ALTER TABLE "claims" ADD COLUMN "batch_limit" integer;--> statement-breakpoint
-- A claim marked to be sent alone keeps being sent alone.
UPDATE "claims" SET "batch_limit" = 1 WHERE "send_alone";
