/** User queries, always within the caller's organization scope (see `scope.ts`). */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Transaction } from "./client.ts";
import { findOf, listOf } from "./readers.ts";
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

/** The active user `id` if the scope may see it. */
export const findUser = findOf(users, visible);

/** A page of the users the scope sees; `email` is matched case-insensitively. */
export const listUsers = listOf(users, visible, {
  organization_id: users.organizationId,
  external_id: users.externalId,
  wallet_address: users.walletAddress,
  email: (email) => emailIs(email),
});

/** The same email, compared case-insensitively (the unique index is on `lower(email)`). */
const emailIs = (email: string) => sql`lower(${users.email}) = lower(${email})`;

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
