/**
 * Claims: a user receives one token of a collectible, minted on-chain to the user's wallet.
 *
 * - The holder is `holder_id`, or `email`: the user with that email in the collectible's
 *   organization, created (with a derived wallet) when there is none.
 * - A person claims a collectible at most once (409 `already_claimed`): per holder, and per
 *   organization and email, so deleting a user and claiming again by the same email is refused;
 *   and never past the collectible's total (409 `sold_out`). Both are decided in the database
 *   transaction that stores the claim (the intent): unique indexes on (collectible, holder) and
 *   (collectible, holder email), and a conditional update of the collectible's supply counter,
 *   which holds the row lock only until the commit. The contract is the final guard.
 * - POST answers once the claim is minted and indexed, with the pending claim after
 *   CONFIRM_TIMEOUT_MS, or 422 `claim_failed` when the chain refused it.
 * - The holder shown follows on-chain transfers; the `holder_id` filter selects claims by the
 *   user who claimed.
 *
 * What the chain says of a claim's token (its holder after transfers, edition, transaction) is
 * kept in the API's own rows (a projection), so a page is read from one database: the edition is
 * stored when the relayer confirms the claim from the indexer, the holder after transfers by the
 * transfer follower. Only a claim confirmed before the API stored editions still asks the
 * indexer.
 */

import DataLoader from "dataloader";
import { getAddress } from "viem";
import {
  type ClaimWithOrganization,
  findClaim,
  findClaims,
  listClaims,
  usersByWallet,
} from "../../db/claims.ts";
import type { ListQuery, Page } from "../../db/driver/recordReads.ts";
import type { IdempotentWrite } from "../../db/idempotencyKeys.ts";
import type { AppDeps, RouteDeps } from "../../deps.ts";
import type { Scope } from "../../domain/auth.ts";
import { chainNotConfigured, claimFailed, notFound } from "../../errorCatalogue.ts";
import type { CreateClaimBody } from "../../schemas/claims.ts";
import type { z } from "../../schemas/zod.ts";
import { viewOf } from "../reads.ts";
import type { ClaimView } from "../views.ts";
import { submitClaim } from "./claimGroups.ts";

type ClaimInput = z.output<typeof CreateClaimBody>;

/** A page of the claims the scope sees. */
export async function list(
  deps: RouteDeps,
  scope: Scope,
  query: ListQuery,
): Promise<Page<ClaimView>> {
  const page = await listClaims(deps.db, scope, query);
  return { ...page, rows: await withChainFacts(deps, page.rows) };
}

/** The claim `id`, 404 when the scope does not see it. */
export async function get(deps: RouteDeps, scope: Scope, id: string): Promise<ClaimView> {
  const row = await findClaim(deps.db, id, scope);
  if (!row) throw notFound("claim", id);
  return viewOf(deps, row, withChainFacts);
}

/** The views of the claims the scope sees among `ids`, by id. */
export async function getMany(
  deps: RouteDeps,
  scope: Scope,
  ids: string[],
): Promise<Map<string, ClaimView>> {
  const rows = await findClaims(deps.db, ids, scope);
  const views = await withChainFacts(deps, rows);
  return new Map(rows.map((row, i) => [row.claim.id, views[i] as ClaimView]));
}

/**
 * Stores the claim (with the others arriving beside it: claimGroups.ts), wakes the
 * relayer, and answers as `settle` does. With no wait for the chain (CONFIRM_TIMEOUT_MS 0) the
 * claim as stored is the answer: it is pending, and reading it again would find the same.
 */
export async function create(
  deps: RouteDeps,
  scope: Scope,
  body: ClaimInput,
  _files?: unknown,
  idempotency?: IdempotentWrite,
): Promise<ClaimView> {
  const chain = deps.chain;
  if (!chain) throw chainNotConfigured();
  const stored = await submitClaim(deps, { scope, body, idempotency });
  chain.wakeRelayer();
  if (deps.config.CONFIRM_TIMEOUT_MS <= 0) return viewOf(deps, stored, withChainFacts);
  return settle(deps, scope, stored.claim.id);
}

/**
 * A stored claim once final (waiting at most CONFIRM_TIMEOUT_MS; then as it is, pending), or 422
 * when the chain refused it. Also the answer to a retry of a create whose first request died
 * after its commit.
 */
export async function settle(deps: RouteDeps, scope: Scope, id: string): Promise<ClaimView> {
  await deps.chain?.statusWaiter.waitForFinal("claim", id, deps.config.CONFIRM_TIMEOUT_MS);
  const current = await readBack(deps, scope, id);
  if (!current) throw notFound("claim", id);
  if (current.claim.status === "failed") {
    throw claimFailed(current.claim.id, current.claim.failureReason ?? "reverted");
  }
  return viewOf(deps, current, withChainFacts);
}

/**
 * Each app's reader of claims to answer with (tests build several apps in one process). The
 * requests that one status check finds final ask for their claims in the same tick: DataLoader
 * gathers those reads into one query per key's scope.
 */
const readers = new WeakMap<RouteDeps, DataLoader<ReadBack, ClaimWithOrganization | undefined>>();

interface ReadBack {
  scope: Scope;
  id: string;
}

/** The claim `id` as it is now, read with the others asked for in the same tick. */
function readBack(
  deps: RouteDeps,
  scope: Scope,
  id: string,
): Promise<ClaimWithOrganization | undefined> {
  let reader = readers.get(deps);
  if (!reader) {
    reader = new DataLoader((asked) => readTogether(deps, asked), { cache: false });
    readers.set(deps, reader);
  }
  return reader.load({ scope, id });
}

/** One query per scope among the reads asked for, side by side. */
async function readTogether(
  deps: RouteDeps,
  asked: readonly ReadBack[],
): Promise<(ClaimWithOrganization | undefined)[]> {
  const scopes = new Map(asked.map(({ scope }) => [scope.organizationId, scope]));
  const found = new Map<string, ClaimWithOrganization>();
  await Promise.all(
    [...scopes].map(async ([organizationId, scope]) => {
      const ids = asked.filter((a) => a.scope.organizationId === organizationId).map((a) => a.id);
      for (const row of await findClaims(deps.db, ids, scope)) {
        found.set(`${organizationId}:${row.claim.id}`, row);
      }
    }),
  );
  return asked.map(({ scope, id }) => found.get(`${scope.organizationId}:${id}`));
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
    // One active user per address in an organization, as wallet_address or linked wallet.
    for (const user of holders) {
      usersByAddress.set(`${user.organizationId}:${user.address}`, user.id);
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
