/** Collectible queries, within the caller's organization scope (see `scope.ts`). */

import { and, asc, inArray, sql } from "drizzle-orm";
import type { Scope } from "../domain/auth.ts";
import type { Transaction } from "./driver/client.ts";
import { findOf, listOf } from "./driver/recordReads.ts";
import { collectibles } from "./schema.ts";
import { visibleCollectible } from "./scope.ts";

export type CollectibleRow = typeof collectibles.$inferSelect;
export type NewCollectible = typeof collectibles.$inferInsert;

/** The collectible `id` if the scope may see it. */
export const findCollectible = findOf(collectibles, visibleCollectible);

/** A page of the collectibles the scope sees. */
export const listCollectibles = listOf(collectibles, visibleCollectible, {
  organization_id: collectibles.organizationId,
  creator_id: collectibles.creatorId,
  external_id: collectibles.externalId,
  finalized: (final) => sql`(${collectibles.finalizedAt} is not null) = ${final}::boolean`,
});

/**
 * The collectibles of these ids the scope sees, row-locked in id order (so two transactions
 * locking overlapping sets cannot deadlock): their supply is the locking transaction's to decide.
 */
export function lockCollectibles(
  tx: Transaction,
  ids: string[],
  scope: Scope,
): Promise<CollectibleRow[]> {
  return tx
    .select()
    .from(collectibles)
    .where(and(inArray(collectibles.id, ids), visibleCollectible(scope)))
    .orderBy(asc(collectibles.id))
    .for("update");
}
