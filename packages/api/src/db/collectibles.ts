/** Collectible queries, within the caller's organization scope (see `scope.ts`). */

import { sql } from "drizzle-orm";
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
