/**
 * The reads every resource answers the same way: a page of its list and one record by id (404
 * when the key may not see it), each row turned into what is presented (`enrich`).
 *
 * And the enrichments: what the chain says about collectibles and claims, joined to the API's
 * rows (claimed counts, each token's holder after transfers, its edition and transaction). The
 * indexer is the source, and the API keeps what it shows in its own rows (a projection), so a
 * page is read from one database: a claim's edition is stored when the relayer confirms it from
 * the indexer, its holder after transfers by the transfer follower, and a collectible's claimed
 * count is its confirmed claims (confirmed means the indexer has the mint). Only a claim
 * confirmed before the API stored editions still asks the indexer.
 */

import { getAddress } from "viem";
import type { ClaimWithOrganization } from "../db/claims.ts";
import { supplyCounts, usersByWallet } from "../db/claims.ts";
import type { CollectibleRow } from "../db/collectibles.ts";
import type { Queryable } from "../db/driver/client.ts";
import type { Presentable } from "../db/driver/pageStatements.ts";
import type { ListQuery, Page } from "../db/driver/recordReads.ts";
import type { AppDeps, RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import { notFound } from "../errorCatalogue.ts";
import type { ClaimView, CollectibleView } from "./views.ts";

type Kind = Parameters<typeof notFound>[0];

export function reads<Row, View>(
  kind: Kind,
  db: {
    list(q: Queryable, scope: Scope, query: ListQuery): Promise<Page<Row>>;
    find(q: Queryable, id: string, scope: Scope): Promise<Row | undefined>;
  },
  enrich: (deps: RouteDeps, rows: Row[]) => Promise<View[]>,
) {
  return {
    async list(deps: RouteDeps, scope: Scope, query: ListQuery): Promise<Page<View>> {
      const page = await db.list(deps.db, scope, query);
      return { ...page, rows: await enrich(deps, page.rows) };
    },
    async get(deps: RouteDeps, scope: Scope, id: string): Promise<View> {
      const row = await db.find(deps.db, id, scope);
      if (!row) throw notFound(kind, id);
      return viewOf(deps, row, enrich);
    },
  };
}

/** One row, enriched. */
export async function viewOf<Row, View>(
  deps: RouteDeps,
  row: Row,
  enrich: (deps: RouteDeps, rows: Row[]) => Promise<View[]>,
): Promise<View> {
  const [view] = await enrich(deps, [row]);
  if (view === undefined) throw new Error("enriching a row answered nothing");
  return view;
}

/**
 * Each collectible's claimed count (its confirmed claims: what the chain has) and pending count
 * (accepted, not yet confirmed), with its reserved places read at the same instant, so that
 * claimed, pending and available add up to the supply (failed claims give their places back,
 * also those of a collectible the chain refused).
 */
export async function withClaimCounts(
  deps: AppDeps,
  rows: Presentable<CollectibleRow>[],
): Promise<CollectibleView[]> {
  const supply = await supplyCounts(
    deps.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const counts = supply.get(row.id);
    return {
      row: counts ? { ...row, reservedCount: counts.reserved } : row,
      claimedCount: counts?.confirmed ?? 0,
      pendingCount: counts?.pending ?? 0,
    };
  });
}

/** The held-by address when the token has left the address it was minted to. */
const movedTo = (holder: string | null, mintedTo: string) =>
  holder && holder.toLowerCase() !== mintedTo.toLowerCase() ? holder : undefined;

export async function withChainFacts(
  deps: AppDeps,
  rows: ClaimWithOrganization[],
): Promise<ClaimView[]> {
  const legacy = await legacyFacts(deps, rows);
  const holderOf = (row: ClaimWithOrganization) =>
    legacy.get(row.claim.id)?.holder ?? row.claim.heldBy;
  const moved = rows.filter((row) => movedTo(holderOf(row), row.claim.mintedTo));
  // `orgId:lowercase address` -> the organization's user holding a token after a transfer.
  const usersByAddress = new Map<string, string>();
  if (moved.length > 0) {
    const holders = await usersByWallet(
      deps.db,
      [...new Set(moved.map((row) => row.organizationId))],
      moved.map((row) => holderOf(row) ?? ""),
    );
    // A linked wallet counts for its user unless another user holds that address as their own.
    for (const user of holders) {
      const linked =
        user.linkedWallet && `${user.organizationId}:${user.linkedWallet.toLowerCase()}`;
      if (linked && !usersByAddress.has(linked)) usersByAddress.set(linked, user.id);
    }
    for (const user of holders) {
      usersByAddress.set(`${user.organizationId}:${user.walletAddress.toLowerCase()}`, user.id);
    }
  }
  return rows.map((row) => {
    const { claim } = row;
    const newHolder = movedTo(holderOf(row), claim.mintedTo);
    const indexed = legacy.get(claim.id);
    return {
      row: claim,
      holderAddress: newHolder ?? claim.mintedTo,
      holderId: newHolder
        ? (usersByAddress.get(`${row.organizationId}:${newHolder.toLowerCase()}`) ?? null)
        : claim.holderId,
      edition: indexed?.edition ?? claim.edition,
      transactionHash: indexed?.transactionHash ?? claim.transactionHash,
    };
  });
}

/** A claim confirmed before editions were stored: its edition is the indexer's. */
const confirmedBeforeEditions = (row: ClaimWithOrganization) =>
  row.claim.status === "confirmed" && row.claim.edition === null;

/**
 * The indexer's facts of claims confirmed before editions were stored (their edition is null):
 * none for claims confirmed since. When the indexer does not answer, they show as minted.
 */
async function legacyFacts(deps: AppDeps, rows: ClaimWithOrganization[]) {
  const facts = new Map<string, { holder: string; edition: number; transactionHash: string }>();
  const indexer = deps.chain?.indexer;
  const ids = rows.filter(confirmedBeforeEditions).map((row) => row.claim.id);
  if (ids.length === 0 || !indexer) return facts;
  try {
    for (const [id, chain] of await indexer.claimsByIds(ids)) {
      facts.set(id, {
        holder: getAddress(chain.holder),
        edition: Number(chain.edition),
        transactionHash: chain.transactionHash,
      });
    }
  } catch (error) {
    deps.logger.warn({ err: (error as Error).message }, "indexer unavailable; holders as minted");
  }
  return facts;
}
