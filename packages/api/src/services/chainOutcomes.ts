/**
 * What the chain does to intents, each change in one transaction with the events it tells
 * integrators (the outbox: db/events.ts): confirmed, failed, taken back by a reorg, final, and
 * transferred. The rows' changes are db/'s; which events fire is decided here. The relayer and
 * the followers in chain/ call these.
 */
import { type IndexerReader, MAX_IDS_PER_CALL } from "@collectibles/indexer/reader";
import {
  type ChangedRows,
  confirmRowsMinedUpTo,
  failClaim,
  failCollectible,
  type MintFacts,
  minedPendingClaimIds,
} from "../db/chainIntents.ts";
import type { Queryable } from "../db/driver/client.ts";
import { claimEventObjects, recordEvents } from "../db/events.ts";
import { finalizeRowsUpTo, type Retaken, takeBackRows } from "../db/finality.ts";
import { type HolderFact, recordHolderRows } from "../db/transfersFollowed.ts";
import type { EventType } from "../domain/events.ts";

type Told = { collectibles: EventType; claims: EventType };

/** Records each kind of row's event; a claim's names its organization (found here). */
async function tell(tx: Queryable, rows: ChangedRows, told: Told): Promise<number> {
  await recordEvents(tx, told.collectibles, rows.collectibles);
  await recordEvents(tx, told.claims, await claimEventObjects(tx, rows.claims));
  return rows.collectibles.length + rows.claims.length;
}

/**
 * Rows mined up to `block`, which the indexer has, become confirmed, each claim with the edition
 * and transaction the indexer gives it; a claim the indexer lacks stays pending (without an
 * indexer, every mined claim is confirmed, with no edition). Answers how many.
 */
export async function confirmMinedUpTo(
  db: Queryable,
  block: bigint,
  indexer: IndexerReader | undefined,
): Promise<number> {
  const mints = indexer ? await mintsUpTo(db, indexer, block) : undefined;
  return db.transaction(async (tx) =>
    tell(tx, await confirmRowsMinedUpTo(tx, block, mints), {
      collectibles: "collectible.confirmed",
      claims: "claim.confirmed",
    }),
  );
}

/**
 * What the indexer has of the claims mined up to `block`, read in parts: a backlog (after an
 * indexer outage, or the chain audit's resending) can pass what one read takes.
 */
async function mintsUpTo(db: Queryable, indexer: IndexerReader, block: bigint) {
  const mints = new Map<string, MintFacts>();
  const ids = await minedPendingClaimIds(db, block);
  for (let from = 0; from < ids.length; from += MAX_IDS_PER_CALL) {
    for (const [id, claim] of await indexer.claimsByIds(ids.slice(from, from + MAX_IDS_PER_CALL))) {
      mints.set(id, { edition: Number(claim.edition), transactionHash: claim.transactionHash });
    }
  }
  return mints;
}

/** A collectible the chain refused fails, with the claims waiting for it. */
export async function markCollectibleFailed(db: Queryable, id: string, reason: string) {
  await db.transaction(async (tx) => {
    const failed = await failCollectible(tx, id, reason);
    await tell(tx, failed, { collectibles: "collectible.failed", claims: "claim.failed" });
  });
}

/** A claim the chain refused fails and gives its place in the supply back. */
export async function markClaimFailed(
  db: Queryable,
  id: string,
  reason: string,
  hash: string | null = null,
) {
  await db.transaction(async (tx) => {
    const failed = await failClaim(tx, id, reason, hash);
    if (failed) await recordEvents(tx, "claim.failed", [failed]);
  });
}

/** Rows whose block left the chain are pending again; a confirmation withdrawn is told. */
export async function takeBack(
  db: Queryable,
  retaken: { collectibles: Retaken[]; claims: Retaken[] },
  head: { number: bigint; hash: string },
) {
  await db.transaction(async (tx) => {
    const withdrawn = await takeBackRows(tx, retaken, head);
    await tell(tx, withdrawn, { collectibles: "collectible.reorged", claims: "claim.reorged" });
  });
}

/** Confirmed rows at or below the finalized block become final; answers how many. */
export function finalizeUpTo(db: Queryable, finalized: bigint): Promise<number> {
  return db.transaction(async (tx) =>
    tell(tx, await finalizeRowsUpTo(tx, finalized), {
      collectibles: "collectible.finalized",
      claims: "claim.finalized",
    }),
  );
}

/** The holders the indexer's transfers show, and `claim.transferred` for each confirmed claim. */
export function recordHolders(
  db: Queryable,
  holders: readonly HolderFact[],
  asOf: bigint,
  followedTo?: bigint,
): Promise<number> {
  return db.transaction(async (tx) => {
    const { changed, transferred } = await recordHolderRows(tx, holders, asOf, followedTo);
    await recordEvents(tx, "claim.transferred", await claimEventObjects(tx, transferred));
    return changed;
  });
}
