/** Claim queries, within the caller's organization scope (through the claim's collectible). */

import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Scope } from "../domain/auth.ts";
import { collectibleClaimCounts } from "./countSchema.ts";
import type { Queryable } from "./driver/client.ts";
import { type Presentable, preparedOnce, type Shown } from "./driver/pageStatements.ts";
import { listOf } from "./driver/recordReads.ts";
import { claims, collectibles } from "./schema.ts";
import { preparedScope, visibleClaim, visibleCollectible } from "./scope.ts";
import { userAddresses } from "./walletSchema.ts";

export type ClaimRow = typeof claims.$inferSelect;
export type NewClaim = typeof claims.$inferInsert;

export interface ClaimWithOrganization {
  claim: Presentable<ClaimRow>;
  organizationId: string;
}

/** A claim as a page reads it. */
type ListedClaim = { claim: Shown<ClaimRow>; organizationId: string };

/** The claim `id` if the scope sees it. */
export async function findClaim(
  q: Queryable,
  id: string,
  scope: Scope,
): Promise<ClaimWithOrganization | undefined> {
  const [row] = await findClaims(q, [id], scope);
  return row;
}

/**
 * The claims of these ids the scope sees, in no particular order. Every POST /claims answers
 * with its claim read here, so the query is prepared once per database (and scoped or not), the
 * ids given as one array: PostgreSQL planned it on every call, 0.19 ms of its 0.21 ms.
 */
export async function findClaims(
  q: Queryable,
  ids: string[],
  scope: Scope,
): Promise<ClaimWithOrganization[]> {
  if (ids.length === 0) return [];
  const scoped = scope.organizationId !== null;
  const find = preparedOnce(q, scoped ? "claims_by_ids_scoped" : "claims_by_ids", (name) =>
    q
      .select({ claim: claims, organizationId: collectibles.organizationId })
      .from(claims)
      .innerJoin(collectibles, eq(collectibles.id, claims.collectibleId))
      .where(
        and(
          sql`${claims.id} = any(${sql.placeholder("ids")}::uuid[])`,
          visibleCollectible(preparedScope(scoped)),
        ),
      )
      .prepare(name),
  );
  return find.execute({ ids, scope: scope.organizationId });
}

/**
 * A page of the claims the scope sees; `holder_id` is who claimed. Visibility is decided per
 * collectible (a hundred rows), not per claim.
 */
export const listClaims = listOf<typeof claims, ListedClaim>(
  claims,
  visibleClaim,
  {
    holder_id: claims.holderId,
    collectible_id: claims.collectibleId,
    external_id: claims.externalId,
    status: claims.status,
    finalized: (final) => sql`(${claims.finalizedAt} is not null) = ${final}::boolean`,
    // As the answer's holder_wallet_address: the holder after transfers, else the minted-to one.
    holder_wallet_address: (address) =>
      sql`lower(coalesce(${claims.heldBy}, ${claims.mintedTo})) = lower(${address})`,
  },
  {
    fields: { claim: claims, organizationId: collectibles.organizationId },
    join: (page) => page.innerJoin(collectibles, eq(collectibles.id, claims.collectibleId)),
  },
  {
    // A collectible's claims by status are counted as they change: the common lists (all, one
    // collectible's, by status) sum a few counters instead of counting every claim.
    filters: ["collectible_id", "status"],
    count: (scope, given, value) => {
      const counts = collectibleClaimCounts;
      return sql`select coalesce(sum(${counts.rows}), 0) from ${counts} where ${and(
        sql`${counts.collectibleId} in (select ${collectibles.id} from ${collectibles} where ${visibleCollectible(scope)})`,
        given.includes("collectible_id")
          ? eq(counts.collectibleId, value("collectible_id"))
          : undefined,
        given.includes("status") ? eq(counts.status, value("status")) : undefined,
      )}`;
    },
  },
);

/** Whether this person (the holder, or anyone with the holder's email) has a claim that did not fail. */
export async function hasClaimed(
  q: Queryable,
  collectibleId: string,
  holder: { id: string; email: string },
): Promise<boolean> {
  const [row] = await q
    .select({ id: claims.id })
    .from(claims)
    .where(
      and(
        eq(claims.collectibleId, collectibleId),
        or(
          eq(claims.holderId, holder.id),
          sql`lower(${claims.holderEmail}) = lower(${holder.email})`,
        ),
        sql`${claims.status} <> 'failed'`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Inserts the claim, then takes one place in the collectible's supply; undefined when none is
 * left (the caller rolls back, removing the claim). Must run in a transaction. A second claim by
 * the same holder, or by the same email through a user created again, fails on the insert
 * (`claims_collectible_holder_unique`, `claims_collectible_holder_email_unique`).
 *
 * The supply update is the transaction's last statement: it takes the collectible's row lock,
 * which concurrent claims of the collectible queue on, and holds it only until the commit that
 * follows.
 */
export async function insertClaimWithinSupply(
  q: Queryable,
  values: NewClaim,
): Promise<ClaimRow | undefined> {
  const [row] = await q.insert(claims).values(values).returning();
  if (!row) throw new Error("insert returned no row");
  const taken = await q
    .update(collectibles)
    .set({ reservedCount: sql`${collectibles.reservedCount} + 1`, updatedAt: sql`now()` })
    .where(
      and(
        eq(collectibles.id, values.collectibleId),
        sql`${collectibles.reservedCount} < ${collectibles.totalCount}`,
      ),
    )
    .returning({ id: collectibles.id });
  return taken.length > 0 ? row : undefined;
}

/**
 * Each holder's (the user who claimed) confirmed claims, for these ids, from the API's records.
 * Every list of users asks this, so its query is prepared once per database.
 */
export async function confirmedClaimsPerHolder(
  q: Queryable,
  ids: string[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const counts = preparedOnce(q, "confirmed_claims_per_holder", (name) =>
    q
      .select({ id: claims.holderId, count: sql<number>`count(*)::int` })
      .from(claims)
      .where(
        and(
          sql`${claims.holderId} = any(${sql.placeholder("ids")}::uuid[])`,
          eq(claims.status, "confirmed"),
        ),
      )
      .groupBy(claims.holderId)
      .prepare(name),
  );
  const rows = await counts.execute({ ids });
  return new Map(rows.map((row) => [row.id, row.count]));
}

/** A collectible's places taken, and its claims confirmed and pending. */
export interface SupplyCounts {
  reserved: number;
  confirmed: number;
  pending: number;
}

/**
 * Each collectible's reserved places with its confirmed and pending claims (from the counters
 * the claims' writes keep), read in one statement so that they agree: read one after another, a
 * claim confirmed in between was counted in neither (claimed 1, pending 0 of 3 places taken).
 */
export async function supplyCounts(
  q: Queryable,
  ids: string[],
): Promise<Map<string, SupplyCounts>> {
  if (ids.length === 0) return new Map();
  const counts = collectibleClaimCounts;
  const rowsIn = (status: string) =>
    sql<number>`coalesce(sum(${counts.rows}) filter (where ${counts.status} = ${status}), 0)::int`;
  const statement = preparedOnce(q, "collectible_supply_counts", (name) =>
    q
      .select({
        id: collectibles.id,
        reserved: collectibles.reservedCount,
        confirmed: rowsIn("confirmed"),
        pending: rowsIn("pending"),
      })
      .from(collectibles)
      .leftJoin(counts, eq(counts.collectibleId, collectibles.id))
      .where(sql`${collectibles.id} = any(${sql.placeholder("ids")}::uuid[])`)
      .groupBy(collectibles.id)
      .prepare(name),
  );
  const rows = await statement.execute({ ids });
  return new Map(rows.map(({ id, ...supply }) => [id, supply]));
}

/**
 * The active user each of these addresses is in each of these organizations (for holders after
 * transfers, a move home included): the user with it as their wallet_address or linked wallet,
 * at most one per organization (the key of `user_addresses`). Addresses come back lowercase.
 */
export async function usersByWallet(
  q: Queryable,
  organizationIds: string[],
  addresses: string[],
): Promise<{ id: string; organizationId: string; address: string }[]> {
  if (addresses.length === 0) return [];
  const lower = [...new Set(addresses.map((a) => a.toLowerCase()))];
  return q
    .select({
      id: userAddresses.userId,
      organizationId: userAddresses.organizationId,
      address: userAddresses.address,
    })
    .from(userAddresses)
    .where(
      and(
        inArray(userAddresses.organizationId, organizationIds),
        inArray(userAddresses.address, lower),
      ),
    );
}

/**
 * Folds the count rows of each collectible and status that has changes appended since the last
 * fold into one row, in one statement: a reader sees the rows before or after, never a part.
 * Only those pairs are visited (the index of rows not folded), not every pair. A change appended
 * meanwhile is not in this statement's snapshot and stays for the next fold; a fold running at
 * the same time waits for this one on the rows both delete and folds only what this one left.
 */
export async function foldClaimCountChanges(q: Queryable): Promise<void> {
  const counts = collectibleClaimCounts;
  const [collectibleId, status, rows, folded] = [
    counts.collectibleId,
    counts.status,
    counts.rows,
    counts.folded,
  ].map((column) => sql.identifier(column.name));
  await q.execute(sql`
    with changed as (
      select distinct ${collectibleId}, ${status} from ${counts} where not ${folded}
    ), gone as (
      delete from ${counts}
      where (${collectibleId}, ${status}) in (select ${collectibleId}, ${status} from changed)
      returning ${collectibleId}, ${status}, ${rows}
    )
    insert into ${counts} (${collectibleId}, ${status}, ${rows}, ${folded})
    select ${collectibleId}, ${status}, sum(${rows}), true from gone group by 1, 2
    having sum(${rows}) <> 0`);
}
