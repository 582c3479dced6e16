CREATE TABLE "claim_counts" (
	"collectible_id" uuid NOT NULL,
	"status" text NOT NULL,
	"rows" integer NOT NULL,
	CONSTRAINT "claim_counts_collectible_id_status_pk" PRIMARY KEY("collectible_id","status")
);
--> statement-breakpoint
CREATE TABLE "user_counts" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"rows" integer NOT NULL
);
--> statement-breakpoint
-- The counts follow every change of claims and users in the changing transaction, by statement
-- (a claim group inserts a hundred rows in one statement: one update per collectible and status).
-- Rows are upserted in key order, so two transactions never take the same counters crosswise.
CREATE FUNCTION "claim_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "claim_counts" AS c ("collectible_id", "status", "rows")
    SELECT "collectible_id", "status", count(*)::int FROM new_rows
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("collectible_id", "status") DO UPDATE SET "rows" = c."rows" + excluded."rows";
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "claim_counts" AS c ("collectible_id", "status", "rows")
    SELECT "collectible_id", "status", sum(change)::int FROM (
      SELECT "collectible_id", "status", 1 AS change FROM new_rows
      UNION ALL SELECT "collectible_id", "status", -1 FROM old_rows
    ) changes
    GROUP BY 1, 2 HAVING sum(change) <> 0 ORDER BY 1, 2
    ON CONFLICT ("collectible_id", "status") DO UPDATE SET "rows" = c."rows" + excluded."rows";
  ELSE
    UPDATE "claim_counts" c SET "rows" = c."rows" - gone.n
    FROM (SELECT "collectible_id", "status", count(*)::int AS n FROM old_rows GROUP BY 1, 2) gone
    WHERE c."collectible_id" = gone."collectible_id" AND c."status" = gone."status";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "claims_counted_insert" AFTER INSERT ON "claims"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "claim_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "claims_counted_update" AFTER UPDATE ON "claims"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "claim_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "claims_counted_delete" AFTER DELETE ON "claims"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "claim_counts_follow"();
--> statement-breakpoint
CREATE FUNCTION "user_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "user_counts" AS c ("organization_id", "rows")
    SELECT "organization_id", count(*)::int FROM new_rows WHERE "is_active"
    GROUP BY 1 ORDER BY 1
    ON CONFLICT ("organization_id") DO UPDATE SET "rows" = c."rows" + excluded."rows";
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "user_counts" AS c ("organization_id", "rows")
    SELECT "organization_id", sum(change)::int FROM (
      SELECT "organization_id", 1 AS change FROM new_rows WHERE "is_active"
      UNION ALL SELECT "organization_id", -1 FROM old_rows WHERE "is_active"
    ) changes
    GROUP BY 1 HAVING sum(change) <> 0 ORDER BY 1
    ON CONFLICT ("organization_id") DO UPDATE SET "rows" = c."rows" + excluded."rows";
  ELSE
    UPDATE "user_counts" c SET "rows" = c."rows" - gone.n
    FROM (SELECT "organization_id", count(*)::int AS n FROM old_rows WHERE "is_active" GROUP BY 1) gone
    WHERE c."organization_id" = gone."organization_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_counted_insert" AFTER INSERT ON "users"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "users_counted_update" AFTER UPDATE ON "users"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "user_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "users_counted_delete" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_counts_follow"();
--> statement-breakpoint
-- Rows already there. The triggers above hold their tables' locks until this migration commits,
-- so no change can slip between these counts and the triggers.
INSERT INTO "claim_counts" ("collectible_id", "status", "rows")
SELECT "collectible_id", "status", count(*)::int FROM "claims" GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "user_counts" ("organization_id", "rows")
SELECT "organization_id", count(*)::int FROM "users" WHERE "is_active" GROUP BY 1;
