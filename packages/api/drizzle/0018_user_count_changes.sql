CREATE TABLE "user_count_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_count_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"rows" integer NOT NULL
);
--> statement-breakpoint
-- Folded every few seconds (a delete of every row, an insert of one): autovacuum must not take
-- the exclusive lock that truncating the emptied pages needs, which user writes would wait for.
ALTER TABLE "user_count_changes" SET (vacuum_truncate = false);
--> statement-breakpoint
-- No user may change between counting the users already there and the triggers keeping the
-- changes (this lock is held until the migrations commit): a change in between would be missing.
LOCK TABLE "users" IN SHARE MODE;
--> statement-breakpoint
-- As in 0009, and each statement also appends its change of all active users: an insert that
-- waits for no other writer (a shared total would make two writers of users wait for each other).
CREATE OR REPLACE FUNCTION "user_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "user_counts" AS c ("organization_id", "rows")
    SELECT "organization_id", count(*)::int FROM new_rows WHERE "is_active"
    GROUP BY 1 ORDER BY 1
    ON CONFLICT ("organization_id") DO UPDATE SET "rows" = c."rows" + excluded."rows";
    INSERT INTO "user_count_changes" ("rows")
    SELECT count(*)::int FROM new_rows WHERE "is_active" HAVING count(*) > 0;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "user_counts" AS c ("organization_id", "rows")
    SELECT "organization_id", sum(change)::int FROM (
      SELECT "organization_id", 1 AS change FROM new_rows WHERE "is_active"
      UNION ALL SELECT "organization_id", -1 FROM old_rows WHERE "is_active"
    ) changes
    GROUP BY 1 HAVING sum(change) <> 0 ORDER BY 1
    ON CONFLICT ("organization_id") DO UPDATE SET "rows" = c."rows" + excluded."rows";
    INSERT INTO "user_count_changes" ("rows")
    SELECT sum(change)::int FROM (
      SELECT 1 AS change FROM new_rows WHERE "is_active"
      UNION ALL SELECT -1 FROM old_rows WHERE "is_active"
    ) changes
    HAVING sum(change) <> 0;
  ELSE
    UPDATE "user_counts" c SET "rows" = c."rows" - gone.n
    FROM (SELECT "organization_id", count(*)::int AS n FROM old_rows WHERE "is_active" GROUP BY 1) gone
    WHERE c."organization_id" = gone."organization_id";
    INSERT INTO "user_count_changes" ("rows")
    SELECT -count(*)::int FROM old_rows WHERE "is_active" HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO "user_count_changes" ("rows")
SELECT coalesce(sum("rows"), 0)::int FROM "user_counts";
