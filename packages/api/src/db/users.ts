/** User queries, always within the caller's organization scope (see `scope.ts`). */

import { and, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Scope } from "../domain/auth.ts";
import { organizationUserCounts, userCountChanges } from "./countSchema.ts";
import type { Queryable, Transaction } from "./driver/client.ts";
import { findOf, listOf } from "./driver/recordReads.ts";
import { organizations, users } from "./schema.ts";
import { isSet, visibleOrganization } from "./scope.ts";
import { nextWalletIndex } from "./walletIndexes.ts";

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/**
 * Users are visible when active, in an active organization, inside the scope. The organizations
 * are the few rows: they are chosen first, and users are matched to them.
 */
function visible(scope: Scope): SQL | undefined {
  const visibleOrganizations = sql`select ${organizations.id} from ${organizations} where ${visibleOrganization(scope)}`;
  return and(isSet(users.isActive), sql`${users.organizationId} in (${visibleOrganizations})`);
}

/** The active user `id` if the scope may see it. */
export const findUser = findOf(users, visible);

/** A page of the users the scope sees; `email` is matched case-insensitively. */
export const listUsers = listOf(
  users,
  visible,
  {
    organization_id: users.organizationId,
    external_id: users.externalId,
    wallet_address: users.walletAddress,
    email: (email) => emailIs(email),
  },
  undefined,
  {
    // Active users are counted per organization as they change (the other filters match a few).
    filters: ["organization_id"],
    count: (scope, given, value) => {
      const counts = organizationUserCounts;
      const sum = sql`select coalesce(sum(${counts.rows}), 0) from ${counts}`;
      if (scope.organizationId === null && !given.includes("organization_id")) {
        // Every user: the few rows of all users' changes, less the few deleted organizations'
        // counters (rather than sum 10,000 organizations' counters, or look up each one).
        const changes = userCountChanges;
        return sql`(select coalesce(sum(${changes.rows}), 0) from ${changes}) - (${sum} where ${counts.organizationId} in (select ${organizations.id} from ${organizations} where not ${organizations.isActive}))`;
      }
      return sql`${sum} where ${and(
        sql`${counts.organizationId} in (select ${organizations.id} from ${organizations} where ${visibleOrganization(scope)})`,
        given.includes("organization_id")
          ? eq(counts.organizationId, value("organization_id"))
          : undefined,
      )}`;
    },
  },
);

/**
 * Folds the changes of all users' count into one row, in one statement, when there are several:
 * a reader sees the rows before or after, never a part. A change appended meanwhile is not in
 * this statement's snapshot and stays; a fold running at the same time waits for this one and
 * folds only what this one left (at worst two rows stay, until the next fold).
 */
export async function foldUserCountChanges(q: Queryable): Promise<void> {
  const changes = userCountChanges;
  const rows = sql.identifier(changes.rows.name);
  await q.execute(sql`
    with folded as (
      delete from ${changes} where (select count(*) from ${changes}) > 1 returning ${changes.rows}
    )
    insert into ${changes} (${rows}) select sum(${rows}) from folded having count(*) > 0`);
}

/** The same email, compared case-insensitively (the unique index is on `lower(email)`). */
const emailIs = (email: string | SQL | Placeholder) => sql`lower(${users.email}) = lower(${email})`;

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
        and(eq(users.organizationId, organizationId), eq(users.isActive, true), emailIs(email)),
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
