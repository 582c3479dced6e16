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
 * - The holder shown follows on-chain transfers (`chainFacts.ts`); the `holder_id` filter
 *   selects claims by the user who claimed.
 */
import {
  type ClaimWithOrganization,
  findClaim,
  hasClaimed,
  insertClaimWithinSupply,
  listClaims,
  type NewClaim,
} from "../db/claims.ts";
import { findCollectible } from "../db/collectibles.ts";
import type { Transaction } from "../db/driver/client.ts";
import type { IdempotentWrite } from "../db/idempotencyKeys.ts";
import { sendingClaimsToLinkedWallets } from "../db/organizations.ts";
import type { Scope } from "../db/scope.ts";
import { findOrCreateUserByEmail, findUser, type UserRow } from "../db/users.ts";
import type { RouteDeps } from "../deps.ts";
import {
  alreadyClaimed,
  chainNotConfigured,
  claimFailed,
  collectibleFailed,
  notFound,
  soldOut,
} from "../errorCatalogue.ts";
import type { ClaimView } from "../presenters/claim.ts";
import type { CreateClaimBody } from "../schemas/claims.ts";
import type { z } from "../schemas/zod.ts";
import { withChainFacts } from "./chainFacts.ts";
import { reads, viewOf } from "./reads.ts";

type ClaimInput = z.output<typeof CreateClaimBody>;

const claimReads = reads("claim", { list: listClaims, find: findClaim }, withChainFacts);
export const { list, get } = claimReads;

/**
 * Stores the claim (with the others arriving beside it: services/claimGroups.ts), wakes the
 * relayer, and answers as `settle` does.
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
  const stored = await deps.claimGroups.submit({ scope, body, idempotency });
  chain.wakeRelayer();
  return settle(deps, scope, stored.claim.id);
}

/**
 * A stored claim once final (waiting at most CONFIRM_TIMEOUT_MS; then as it is, pending), or 422
 * when the chain refused it. Also the answer to a retry of a create whose first request died
 * after its commit.
 */
export async function settle(deps: RouteDeps, scope: Scope, id: string): Promise<ClaimView> {
  await deps.chain?.statusWaiter.waitForFinal("claim", id, deps.config.CONFIRM_TIMEOUT_MS);
  const current = await findClaim(deps.db, id, scope);
  if (!current) throw notFound("claim", id);
  if (current.claim.status === "failed") {
    throw claimFailed(current.claim.id, current.claim.failureReason ?? "reverted");
  }
  return viewOf(deps, current, withChainFacts);
}

/** The supply and one-per-holder decisions, and the stored intent, in one transaction. */
export async function storeClaim(
  deps: RouteDeps,
  tx: Transaction,
  scope: Scope,
  body: ClaimInput,
): Promise<ClaimWithOrganization> {
  const collectible = await findCollectible(tx, body.collectible_id, scope);
  if (!collectible) throw notFound("collectible", body.collectible_id, "collectible_id");
  if (collectible.status === "failed") throw collectibleFailed();
  const organizationId = collectible.organizationId;
  const holder =
    body.holder_id !== undefined
      ? await findUser(tx, body.holder_id, scope)
      : await findOrCreateUserByEmail(tx, organizationId, body.email as string, (index) =>
          deps.wallets.addressAt(index),
        );
  if (!holder || holder.organizationId !== organizationId) {
    const scopeText = "in the collectible's organization";
    throw notFound("user", body.holder_id ?? "", "holder_id", scopeText);
  }
  // A cheap answer first; the supply update below is the atomic decision. A holder who claimed
  // before hears that rather than "sold out".
  if (collectible.reservedCount >= collectible.totalCount) {
    throw (await hasClaimed(tx, collectible.id, holder))
      ? alreadyClaimed()
      : soldOut(collectible.totalCount);
  }
  // A holder's second claim fails here on the unique index (409 already_claimed).
  const toLinked =
    holder.linkedWallet !== null &&
    (await sendingClaimsToLinkedWallets(tx, [organizationId])).has(organizationId);
  const claim = await insertClaimWithinSupply(tx, newClaim(collectible.id, holder, body, toLinked));
  if (!claim) throw soldOut(collectible.totalCount);
  return { claim, organizationId };
}

/**
 * The claim as stored: minted to the holder's address as it is now (their linked wallet when
 * `toLinked`: the organization's `claims_to_linked_wallet`), and counted against the holder's
 * email (one claim per person, also through a user created again).
 */
export function newClaim(
  collectibleId: string,
  holder: UserRow,
  body: ClaimInput,
  toLinked = false,
): NewClaim {
  return {
    collectibleId,
    holderId: holder.id,
    mintedTo: (toLinked && holder.linkedWallet) || holder.walletAddress,
    holderEmail: holder.email,
    externalId: body.external_id ?? null,
  };
}
