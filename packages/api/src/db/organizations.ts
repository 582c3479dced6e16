/**
 * Organization queries. Every read takes the caller's scope (`scope.ts`): what the key may not
 * see reads as absent.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Queryable, rowsOf } from "./driver/client.ts";
import { findOf, listOf } from "./driver/recordReads.ts";
import { organizations, users } from "./schema.ts";
import { visibleOrganization } from "./scope.ts";

export type OrganizationRow = typeof organizations.$inferSelect;
export type NewOrganization = typeof organizations.$inferInsert;

/** The active organization `id` if the scope may see it. */
export const findOrganization = findOf(organizations, visibleOrganization);

/** A page of the organizations the scope sees. */
export const listOrganizations = listOf(organizations, visibleOrganization, {
  parent_id: organizations.parentId,
  external_id: organizations.externalId,
  wallet_address: organizations.walletAddress,
});

/** True when `ancestorId` is `id` itself or one of its ancestors (following parent_id upwards). */
export async function isSelfOrAncestor(
  q: Queryable,
  ancestorId: string,
  id: string,
): Promise<boolean> {
  const result = await q.execute(sql`
    with recursive up(id, parent_id) as (
      select id, parent_id from organizations where id = ${id}::uuid
      union
      select o.id, o.parent_id from organizations o join up on o.id = up.parent_id
    )
    select exists(select 1 from up where id = ${ancestorId}::uuid) as found`);
  return rowsOf<{ found: boolean }>(result)[0]?.found === true;
}

/**
 * Serialises changes of parent_id: two concurrent moves (A under B, B under A) could each pass
 * the cycle check alone. Held until the transaction ends.
 */
export async function lockOrganizationTree(q: Queryable): Promise<void> {
  await q.execute(
    sql`select pg_advisory_xact_lock(hashtext('collectibles_api_organization_tree'))`,
  );
}

/** Whether the organization still has active sub-organizations or users. */
export async function organizationContents(
  q: Queryable,
  id: string,
): Promise<{ organizations: number; users: number }> {
  const [children] = await q
    .select({ count: sql<number>`count(*)::int` })
    .from(organizations)
    .where(and(eq(organizations.parentId, id), eq(organizations.isActive, true)));
  const [members] = await q
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.organizationId, id), eq(users.isActive, true)));
  return { organizations: children?.count ?? 0, users: members?.count ?? 0 };
}

/** Of these organizations, those whose new claims go to the holder's linked wallet. */
export async function sendingClaimsToLinkedWallets(
  q: Queryable,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await q
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(inArray(organizations.id, ids), eq(organizations.claimsToLinkedWallet, true)));
  return new Set(rows.map((row) => row.id));
}
