/** Claim queries, within the caller's organization scope (through the claim's collectible). */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Queryable } from "./client.ts";
import { countRows, type ListCounts, listKey } from "./listCounts.ts";
import { offsetOf, type PageRequest } from "./pagination.ts";
import { claims, collectibles, users } from "./schema.ts";
import { type Scope, visibleCollectible } from "./scope.ts";

export type ClaimRow = typeof claims.$inferSelect;
export type NewClaim = typeof claims.$inferInsert;

export interface ClaimWithOrganization {
  claim: ClaimRow;
  organizationId: string;
}

export async function findClaim(
  q: Queryable,
  id: string,
  scope: Scope,
): Promise<ClaimWithOrganization | undefined> {
  const [row] = await q
    .select({ claim: claims, organizationId: collectibles.organizationId })
    .from(claims)
    .innerJoin(collectibles, eq(collectibles.id, claims.collectibleId))
    .where(and(eq(claims.id, id), visibleCollectible(scope)));
  return row;
}

export interface ClaimFilters {
  holderId?: string;
  collectibleId?: string;
  externalId?: string;
}

/**
 * One page of claims, oldest first. Visibility is decided per collectible (a hundred rows), not
 * per claim, and the page's ids come from the (created_at, id, collectible_id) index alone, so a
 * deep OFFSET walks index entries only; the full rows are read for the page's ids.
 */
export async function listClaims(
  q: Queryable,
  scope: Scope,
  filters: ClaimFilters,
  page: PageRequest,
  counts: ListCounts,
): Promise<{ rows: ClaimWithOrganization[]; count: number }> {
  const visibleCollectibles = q
    .select({ id: collectibles.id })
    .from(collectibles)
    .where(visibleCollectible(scope));
  const where = and(
    inArray(claims.collectibleId, visibleCollectibles),
    filters.holderId === undefined ? undefined : eq(claims.holderId, filters.holderId),
    filters.collectibleId === undefined
      ? undefined
      : eq(claims.collectibleId, filters.collectibleId),
    filters.externalId === undefined ? undefined : eq(claims.externalId, filters.externalId),
  );
  const count = await counts.get(listKey("claims", scope, filters), () =>
    countRows(q, claims, where),
  );
  const pageIds = q
    .select({ id: claims.id })
    .from(claims)
    .where(where)
    .orderBy(asc(claims.createdAt), asc(claims.id))
    .limit(page.limit)
    .offset(offsetOf(page));
  const rows = await q
    .select({ claim: claims, organizationId: collectibles.organizationId })
    .from(claims)
    .innerJoin(collectibles, eq(collectibles.id, claims.collectibleId))
    .where(inArray(claims.id, pageIds))
    .orderBy(asc(claims.createdAt), asc(claims.id));
  return { rows, count };
}

/** Whether the holder has a claim of the collectible that did not fail. */
export async function hasClaimed(
  q: Queryable,
  collectibleId: string,
  holderId: string,
): Promise<boolean> {
  const [row] = await q
    .select({ id: claims.id })
    .from(claims)
    .where(
      and(
        eq(claims.collectibleId, collectibleId),
        eq(claims.holderId, holderId),
        sql`${claims.status} <> 'failed'`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Inserts the claim, then takes one place in the collectible's supply; undefined when none is
 * left (the caller rolls back, removing the claim). Must run in a transaction. A second claim by
 * the same holder fails on the insert (`claims_collectible_holder_unique`).
 *
 * The supply update is the transaction's last statement: it takes the collectible's row lock,
 * which concurrent claims of the collectible queue on, and holds it only until the commit that
 * follows. A second claim by the same holder fails on `claims_collectible_holder_unique`.
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

/** Confirmed claims per user. */
export async function confirmedClaimsByHolder(
  q: Queryable,
  holderIds: string[],
): Promise<Map<string, number>> {
  if (holderIds.length === 0) return new Map();
  const rows = await q
    .select({ id: claims.holderId, count: sql<number>`count(*)::int` })
    .from(claims)
    .where(and(inArray(claims.holderId, holderIds), eq(claims.status, "confirmed")))
    .groupBy(claims.holderId);
  return new Map(rows.map((row) => [row.id, row.count]));
}

/** Active users of an organization with these wallet addresses (for holders after transfers). */
export async function usersByWallet(
  q: Queryable,
  organizationIds: string[],
  addresses: string[],
): Promise<{ id: string; organizationId: string; walletAddress: string }[]> {
  if (addresses.length === 0) return [];
  return q
    .select({
      id: users.id,
      organizationId: users.organizationId,
      walletAddress: users.walletAddress,
    })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        inArray(users.organizationId, organizationIds),
        inArray(
          sql`lower(${users.walletAddress})`,
          addresses.map((a) => a.toLowerCase()),
        ),
      ),
    );
}
