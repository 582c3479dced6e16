/**
 * Organization queries. Every read takes the caller's scope: a key scoped to an organization sees
 * that organization and its descendants only; everything else reads as absent.
 */
import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Queryable } from "./client.ts";
import { countRows, type ListCounts, listKey } from "./listCounts.ts";
import { offsetOf, type PageRequest } from "./pagination.ts";
import { rowsOf } from "./rows.ts";
import { organizations, users, walletIndexSeq } from "./schema.ts";

export type OrganizationRow = typeof organizations.$inferSelect;
export type NewOrganization = typeof organizations.$inferInsert;

/** What a request may see: everything (`null`) or one organization's subtree. */
export interface Scope {
  organizationId: string | null;
}

/** Restricts `column` (an organization id) to the scope's subtree; undefined when unscoped. */
export function scopeCondition(scope: Scope, column: AnyPgColumn): SQL | undefined {
  if (!scope.organizationId) return undefined;
  return sql`${column} in (
    with recursive subtree(id) as (
      select ${scope.organizationId}::uuid
      union
      select child.id from organizations child join subtree on child.parent_id = subtree.id
    )
    select id from subtree
  )`;
}

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
    .where(
      and(
        eq(organizations.id, id),
        eq(organizations.isActive, true),
        scopeCondition(scope, organizations.id),
      ),
    );
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
    eq(organizations.isActive, true),
    scopeCondition(scope, organizations.id),
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

/** A fresh BIP-44 address index for a service wallet. */
export async function nextWalletIndex(q: Queryable): Promise<number> {
  const result = await q.execute(sql`select nextval(${walletIndexSeq.seqName}) as index`);
  const index = Number(rowsOf<{ index: string | number }>(result)[0]?.index);
  if (!Number.isSafeInteger(index)) throw new Error("wallet index sequence answered nothing");
  return index;
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
