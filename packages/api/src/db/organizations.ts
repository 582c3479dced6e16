/**
 * Organization queries. Every read takes the caller's scope (`scope.ts`): what the key may not
 * see reads as absent.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Queryable } from "./client.ts";
import { countRows, type ListCounts, listKey } from "./listCounts.ts";
import { offsetOf, type PageRequest } from "./pagination.ts";
import { rowsOf } from "./rows.ts";
import { organizations, users } from "./schema.ts";
import { type Scope, visibleOrganization } from "./scope.ts";

export type OrganizationRow = typeof organizations.$inferSelect;
export type NewOrganization = typeof organizations.$inferInsert;

/** The active organization `id` if the scope may see it. `lock` takes a row lock (transactions). */
export async function findOrganization(
  q: Queryable,
  id: string,
  scope: Scope,
  lock?: "share" | "update",
): Promise<OrganizationRow | undefined> {
  const query = q
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, id), visibleOrganization(scope)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export interface OrganizationFilters {
  parentId?: string;
  externalId?: string;
  walletAddress?: string;
}

export async function listOrganizations(
  q: Queryable,
  scope: Scope,
  filters: OrganizationFilters,
  page: PageRequest,
  counts: ListCounts,
): Promise<{ rows: OrganizationRow[]; count: number }> {
  const where = and(
    visibleOrganization(scope),
    filters.parentId === undefined ? undefined : eq(organizations.parentId, filters.parentId),
    filters.externalId === undefined ? undefined : eq(organizations.externalId, filters.externalId),
    filters.walletAddress === undefined
      ? undefined
      : eq(organizations.walletAddress, filters.walletAddress),
  );
  const count = await counts.get(listKey("organizations", scope, filters), () =>
    countRows(q, organizations, where),
  );
  const rows = await q
    .select()
    .from(organizations)
    .where(where)
    .orderBy(asc(organizations.createdAt), asc(organizations.id))
    .limit(page.limit)
    .offset(offsetOf(page));
  return { rows, count };
}

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

export async function insertOrganization(
  q: Queryable,
  values: NewOrganization,
): Promise<OrganizationRow> {
  const [row] = await q.insert(organizations).values(values).returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

export async function updateOrganization(
  q: Queryable,
  id: string,
  values: Partial<NewOrganization>,
): Promise<OrganizationRow> {
  const [row] = await q
    .update(organizations)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(organizations.id, id))
    .returning();
  if (!row) throw new Error("update matched no row");
  return row;
}

export async function deactivateOrganization(q: Queryable, id: string): Promise<void> {
  await q
    .update(organizations)
    .set({ isActive: false, deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(organizations.id, id));
}
