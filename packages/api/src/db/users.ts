/** User queries, always within the caller's organization scope (see `scope.ts`). */
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Queryable, Transaction } from "./client.ts";
import { countRows, type ListCounts, listKey } from "./listCounts.ts";
import { offsetOf, type PageRequest } from "./pagination.ts";
import { organizations, users } from "./schema.ts";
import { type Scope, visibleOrganization } from "./scope.ts";
import { nextWalletIndex } from "./walletIndexes.ts";

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/**
 * Users are visible when active, in an active organization, inside the scope. The organizations
 * are the few rows: they are chosen first, and users are matched to them.
 */
function visible(scope: Scope): SQL | undefined {
  const visibleOrganizations = sql`select ${organizations.id} from ${organizations} where ${visibleOrganization(scope)}`;
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

/**
 * The organization's active user with this email (case-insensitive), created with the wallet at
 * a fresh index when there is none. A concurrent creation of the same user is found, not
 * duplicated: losing the race to another insert leaves no error (the transaction stays usable).
 */
export async function findOrCreateUserByEmail(
  tx: Transaction,
  organizationId: string,
  email: string,
  walletAt: (index: number) => string,
): Promise<UserRow> {
  const find = async () => {
    const [row] = await tx
      .select()
      .from(users)
      .where(
        and(
          eq(users.organizationId, organizationId),
          eq(users.isActive, true),
          sql`lower(${users.email}) = lower(${email})`,
        ),
      );
    return row;
  };
  const existing = await find();
  if (existing) return existing;
  const walletIndex = await nextWalletIndex(tx);
  const [created] = await tx
    .insert(users)
    .values({ organizationId, email, walletIndex, walletAddress: walletAt(walletIndex) })
    .onConflictDoNothing()
    .returning();
  const user = created ?? (await find());
  if (!user) throw new Error(`no user ${email} after a conflicting insert`);
  return user;
}
