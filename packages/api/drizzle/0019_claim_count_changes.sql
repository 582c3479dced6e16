ALTER TABLE "claim_counts" DROP CONSTRAINT "claim_counts_collectible_id_status_pk";--> statement-breakpoint
ALTER TABLE "claim_counts" ADD COLUMN "id" bigint PRIMARY KEY NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "claim_counts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "claim_counts" ADD COLUMN "folded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "claim_counts_collectible_id_status_index" ON "claim_counts" USING btree ("collectible_id","status");--> statement-breakpoint
CREATE INDEX "claim_counts_unfolded_index" ON "claim_counts" USING btree ("collectible_id","status") WHERE not "claim_counts"."folded";
--> statement-breakpoint
-- The counters already there are each pair's whole count, as a fold leaves it.
UPDATE "claim_counts" SET "folded" = true;
--> statement-breakpoint
-- Folded every few seconds (each pair's rows deleted, their sum inserted): autovacuum must not
-- take the exclusive lock that truncating the emptied pages needs, which claim writes would wait for.
ALTER TABLE "claim_counts" SET (vacuum_truncate = false);
--> statement-breakpoint
-- Each statement that writes claims appends its changes, one row per collectible and status: an
-- insert that waits for no other writer. Upserting one counter per status made a claim group wait
-- for the relayer's confirmation of the same collectible to commit, and the reverse.
CREATE OR REPLACE FUNCTION "claim_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "claim_counts" ("collectible_id", "status", "rows")
    SELECT "collectible_id", "status", count(*)::int FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "claim_counts" ("collectible_id", "status", "rows")
    SELECT "collectible_id", "status", sum(change)::int FROM (
      SELECT "collectible_id", "status", 1 AS change FROM new_rows
      UNION ALL SELECT "collectible_id", "status", -1 FROM old_rows
    ) changes
    GROUP BY 1, 2 HAVING sum(change) <> 0;
  ELSE
    INSERT INTO "claim_counts" ("collectible_id", "status", "rows")
    SELECT "collectible_id", "status", -count(*)::int FROM old_rows GROUP BY 1, 2;
  END IF;
  RETURN NULL;
END $$;
