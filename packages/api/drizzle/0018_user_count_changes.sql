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
-- Each statement that writes users appends its change of all active users: an insert that waits
-- for no other writer (a shared total would make two writers of users wait for each other). The
-- organizations' counters stay with 0009's triggers.
CREATE FUNCTION "user_count_changes_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "user_count_changes" ("rows")
    SELECT count(*)::int FROM new_rows WHERE "is_active" HAVING count(*) > 0;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "user_count_changes" ("rows")
    SELECT sum(change)::int FROM (
      SELECT 1 AS change FROM new_rows WHERE "is_active"
      UNION ALL SELECT -1 FROM old_rows WHERE "is_active"
    ) changes
    HAVING sum(change) <> 0;
  ELSE
    INSERT INTO "user_count_changes" ("rows")
    SELECT -count(*)::int FROM old_rows WHERE "is_active" HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_changes_counted_insert" AFTER INSERT ON "users"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_count_changes_follow"();
--> statement-breakpoint
CREATE TRIGGER "users_changes_counted_update" AFTER UPDATE ON "users"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "user_count_changes_follow"();
--> statement-breakpoint
CREATE TRIGGER "users_changes_counted_delete" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_count_changes_follow"();
--> statement-breakpoint
INSERT INTO "user_count_changes" ("rows")
SELECT coalesce(sum("rows"), 0)::int FROM "user_counts";
