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
 * - The holder shown follows on-chain transfers (`services/reads.ts`); the `holder_id` filter
 *   selects claims by the user who claimed.
 */

import { findClaim, listClaims } from "../../db/claims.ts";
import type { IdempotentWrite } from "../../db/idempotencyKeys.ts";
import type { RouteDeps } from "../../deps.ts";
import type { Scope } from "../../domain/auth.ts";
import { chainNotConfigured, claimFailed, notFound } from "../../errorCatalogue.ts";
import type { CreateClaimBody } from "../../schemas/claims.ts";
import type { z } from "../../schemas/zod.ts";
import { reads, viewOf, withChainFacts } from "../reads.ts";
import type { ClaimView } from "../views.ts";
import { submitClaim } from "./claimGroups.ts";

type ClaimInput = z.output<typeof CreateClaimBody>;

const claimReads = reads("claim", { list: listClaims, find: findClaim }, withChainFacts);
export const { list, get } = claimReads;

/**
 * Stores the claim (with the others arriving beside it: claimGroups.ts), wakes the
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
  const stored = await submitClaim(deps, { scope, body, idempotency });
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
