/** Collectible queries, within the caller's organization scope (see `scope.ts`). */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Queryable } from "./client.ts";
import { countRows, type ListCounts, listKey } from "./listCounts.ts";
import { offsetOf, type PageRequest } from "./pagination.ts";
import { claims, collectibles } from "./schema.ts";
import { type Scope, visibleCollectible } from "./scope.ts";

export type CollectibleRow = typeof collectibles.$inferSelect;
export type NewCollectible = typeof collectibles.$inferInsert;

export async function findCollectible(
  q: Queryable,
  id: string,
  scope: Scope,
  lock?: "update",
): Promise<CollectibleRow | undefined> {
  const query = q
    .select()
    .from(collectibles)
    .where(and(eq(collectibles.id, id), visibleCollectible(scope)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export interface CollectibleFilters {
  organizationId?: string;
  creatorId?: string;
  externalId?: string;
}

export async function listCollectibles(
  q: Queryable,
  scope: Scope,
  filters: CollectibleFilters,
  page: PageRequest,
  counts: ListCounts,
): Promise<{ rows: CollectibleRow[]; count: number }> {
  const where = and(
    visibleCollectible(scope),
    filters.organizationId === undefined
      ? undefined
      : eq(collectibles.organizationId, filters.organizationId),
    filters.creatorId === undefined ? undefined : eq(collectibles.creatorId, filters.creatorId),
    filters.externalId === undefined ? undefined : eq(collectibles.externalId, filters.externalId),
  );
  const count = await counts.get(listKey("collectibles", scope, filters), () =>
    countRows(q, collectibles, where),
  );
  const rows = await q
    .select()
    .from(collectibles)
    .where(where)
    .orderBy(asc(collectibles.createdAt), asc(collectibles.id))
    .limit(page.limit)
    .offset(offsetOf(page));
  return { rows, count };
}

export async function insertCollectible(
  q: Queryable,
  values: NewCollectible,
): Promise<CollectibleRow> {
  const [row] = await q.insert(collectibles).values(values).returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

/** Confirmed claims per collectible, from the API's records (used when the indexer is down). */
export async function confirmedClaimCounts(
  q: Queryable,
  ids: string[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await q
    .select({ id: claims.collectibleId, count: sql<number>`count(*)::int` })
    .from(claims)
    .where(and(inArray(claims.collectibleId, ids), eq(claims.status, "confirmed")))
    .groupBy(claims.collectibleId);
  return new Map(rows.map((row) => [row.id, row.count]));
}
