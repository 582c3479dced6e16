/** User queries, always within the caller's organization scope (see `organizations.ts`). */
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "./client.ts";
import { countRows, type ListCounts, listKey } from "./listCounts.ts";
import { type Scope, scopeCondition } from "./organizations.ts";
import { offsetOf, type PageRequest } from "./pagination.ts";
import { organizations, users } from "./schema.ts";

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/**
 * Users are visible when active, in an active organization, inside the scope. The organizations
 * are the few rows: they are chosen first, and users are matched to them.
 */
function visible(scope: Scope): SQL | undefined {
  const visibleOrganizations = sql`select ${organizations.id} from ${organizations} where ${and(
    eq(organizations.isActive, true),
    scopeCondition(scope, organizations.id),
  )}`;
  return and(eq(users.isActive, true), sql`${users.organizationId} in (${visibleOrganizations})`);
}

export async function findUser(
  q: Queryable,
  id: string,
  scope: Scope,
): Promise<UserRow | undefined> {
  const [row] = await q
    .select()
    .from(users)
    .where(and(eq(users.id, id), visible(scope)));
  return row;
}

export interface UserFilters {
  organizationId?: string;
  externalId?: string;
  /** Matched case-insensitively. */
  email?: string;
  walletAddress?: string;
}

export async function listUsers(
  q: Queryable,
  scope: Scope,
  filters: UserFilters,
  page: PageRequest,
  counts: ListCounts,
): Promise<{ rows: UserRow[]; count: number }> {
  const where = and(
    visible(scope),
    filters.organizationId === undefined
      ? undefined
      : eq(users.organizationId, filters.organizationId),
    filters.externalId === undefined ? undefined : eq(users.externalId, filters.externalId),
    filters.email === undefined ? undefined : sql`lower(${users.email}) = lower(${filters.email})`,
    filters.walletAddress === undefined
      ? undefined
      : eq(users.walletAddress, filters.walletAddress),
  );
  const count = await counts.get(listKey("users", scope, filters), () =>
    countRows(q, users, where),
  );
  // The page's ids from the index, then their rows: a deep OFFSET skips index entries only.
  const pageIds = q
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(page.limit)
    .offset(offsetOf(page));
  const rows = await q
    .select()
    .from(users)
    .where(inArray(users.id, pageIds))
    .orderBy(asc(users.createdAt), asc(users.id));
  return { rows, count };
}

export async function insertUser(q: Queryable, values: NewUser): Promise<UserRow> {
  const [row] = await q.insert(users).values(values).returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

export async function updateUser(
  q: Queryable,
  id: string,
  values: Partial<NewUser>,
): Promise<UserRow> {
  const [row] = await q
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  if (!row) throw new Error("update matched no row");
  return row;
}

export async function deactivateUser(q: Queryable, id: string): Promise<void> {
  await q
    .update(users)
    .set({ isActive: false, deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(users.id, id));
}
