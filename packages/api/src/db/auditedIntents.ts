/**
 * The chain audit's queries (chain/chainAudit.ts): what the API recorded as mined, and putting
 * back to pending what the chain turned out not to have.
 */
import { and, inArray, isNotNull, sql } from "drizzle-orm";
import { lockCollectiblesOfClaims } from "./chainIntents.ts";
import type { Database, Queryable } from "./driver/client.ts";
import { claims, collectibles } from "./schema.ts";

/** Every collectible and claim recorded as mined (pending or confirmed), for a chain audit. */
export async function minedIntents(q: Queryable) {
  const mined = (table: typeof collectibles | typeof claims) =>
    and(inArray(table.status, ["pending", "confirmed"]), isNotNull(table.minedBlock));
  return {
    collectibles: await q
      .select({ id: collectibles.id })
      .from(collectibles)
      .where(mined(collectibles)),
    claims: await q
      .select({ id: claims.id, collectibleId: claims.collectibleId })
      .from(claims)
      .where(mined(claims)),
  };
}

/** Objects the chain turned out not to have: pending and unsent again, as when first accepted. */
export async function unmine(db: Database, collectibleIds: string[], claimIds: string[]) {
  const again = {
    status: "pending" as const,
    minedBlock: null,
    minedBlockHash: null,
    // Whatever was thought final is not: the chain does not have it.
    finalizedAt: null,
    transactionHash: null,
    updatedAt: sql`now()`,
  };
  await db.transaction(async (tx) => {
    if (collectibleIds.length > 0) {
      await tx.update(collectibles).set(again).where(inArray(collectibles.id, collectibleIds));
    }
    if (claimIds.length === 0) return;
    await lockCollectiblesOfClaims(
      tx,
      sql`select ${claims.collectibleId} from ${claims} where ${inArray(claims.id, claimIds)}`,
    );
    await tx
      .update(claims)
      // Sent again, the token goes to `minted_to`: transfers on the lost chain are gone too.
      .set({ ...again, edition: null, heldBy: null, heldByBlock: null })
      .where(inArray(claims.id, claimIds));
  });
}
