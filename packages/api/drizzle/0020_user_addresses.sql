CREATE TABLE "user_addresses" (
	"organization_id" uuid NOT NULL,
	"address" text NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "user_addresses_pkey" PRIMARY KEY("organization_id","address")
);
--> statement-breakpoint
-- No user may change between taking the addresses already there and the triggers keeping them
-- (this lock is held until the migrations commit): a change in between would be missing.
LOCK TABLE "users" IN SHARE MODE;
--> statement-breakpoint
-- A user's addresses while active: wallet_address and linked wallet, lowercase, once each.
CREATE FUNCTION "user_addresses_of"("u" "users")
  RETURNS TABLE ("organization_id" uuid, "address" text, "user_id" uuid)
  LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT u."organization_id", lower(w.address), u."id"
  FROM (VALUES (u."wallet_address"), (u."linked_wallet")) AS w(address)
  WHERE u."is_active" AND w.address IS NOT NULL
$$;
--> statement-breakpoint
-- Each statement that writes users removes the addresses its users no longer have (a user's own
-- rows only) and adds the ones they gained. An address another active user of the organization
-- has, as either, breaks the key and the statement fails; of two transactions adding one
-- address, the second waits on the key for the first and fails once it commits.
CREATE FUNCTION "user_addresses_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "user_addresses" SELECT a.* FROM new_rows n, "user_addresses_of"(n) a;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM "user_addresses" kept USING (
      SELECT a.* FROM old_rows o, "user_addresses_of"(o) a
      EXCEPT SELECT a.* FROM new_rows n, "user_addresses_of"(n) a
    ) lost
    WHERE kept."organization_id" = lost."organization_id" AND kept."address" = lost."address"
      AND kept."user_id" = lost."user_id";
    INSERT INTO "user_addresses"
    SELECT a.* FROM new_rows n, "user_addresses_of"(n) a
    EXCEPT SELECT a.* FROM old_rows o, "user_addresses_of"(o) a;
  ELSE
    DELETE FROM "user_addresses" kept USING (
      SELECT a.* FROM old_rows o, "user_addresses_of"(o) a
    ) lost
    WHERE kept."organization_id" = lost."organization_id" AND kept."address" = lost."address"
      AND kept."user_id" = lost."user_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_addresses_insert" AFTER INSERT ON "users"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_addresses_follow"();
--> statement-breakpoint
CREATE TRIGGER "users_addresses_update" AFTER UPDATE ON "users"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "user_addresses_follow"();
--> statement-breakpoint
CREATE TRIGGER "users_addresses_delete" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_addresses_follow"();
--> statement-breakpoint
-- The addresses already there. Earlier releases let a second user of an organization take an
-- address a user had linked (or link one another user had as their own): the address stays with
-- the user who had it first (created with it, or linked it, earlier), who then holds what is
-- there; the other keeps the column but not the address, until they change it.
INSERT INTO "user_addresses"
SELECT DISTINCT ON (a."organization_id", a."address") a.*
FROM "users" u, "user_addresses_of"(u) a
ORDER BY a."organization_id", a."address",
  CASE WHEN a."address" = lower(u."wallet_address") THEN u."created_at" ELSE u."linked_at" END,
  u."id";
