/**
 * POST /claims under load: the claims that arrive while a group is being stored are stored
 * together as the next group (lib/groupQueue.ts), in one transaction per scope, with one
 * statement for the whole group (`insertClaimGroup`, db/claimGroups.ts: the collectibles locked,
 * places given, holders found or created, the claims inserted and their places taken) instead of
 * nine round trips and a commit per claim; then the Idempotency-Key records, written together.
 * Wallet indexes for the holders it may create come from a reserve taken ahead.
 *
 * A request this path cannot place (an unknown or failed collectible, a holder not found or
 * created by a concurrent request, a claim a unique index refuses, the supply running out, a key
 * repeated in the group) is then decided alone, in a savepoint of the same transaction, by the
 * one-claim path (`storeClaim`): each request gets exactly the answer it would get alone.
 */

import { deleteNewClaims, deleteNewUsers, insertClaimGroup } from "../../db/claimGroups.ts";
import type { ClaimWithOrganization } from "../../db/claims.ts";
import type { Transaction } from "../../db/driver/client.ts";
import { deadlockDetected } from "../../db/driver/pgError.ts";
import {
  IdempotencyKeyTaken,
  type IdempotentWrite,
  recordCreatedObject,
  recordCreatedObjects,
} from "../../db/idempotencyKeys.ts";
import { giveBackWalletIndexes, takeWalletIndexes } from "../../db/walletIndexes.ts";
import type { RouteDeps } from "../../deps.ts";
import type { Scope } from "../../domain/auth.ts";
import { asConflict } from "../../errorCatalogue.ts";
import { ApiError } from "../../errors.ts";
import { GroupQueue, type Settled } from "../../lib/groupQueue.ts";
import type { CreateClaimBody } from "../../schemas/claims.ts";
import type { z } from "../../schemas/zod.ts";
import { storeClaim } from "./storeClaim.ts";

type Outcome = Settled<ClaimWithOrganization>;

/** One POST /claims waiting to be stored with the others that arrive beside it. */
export interface ClaimRequest {
  scope: Scope;
  body: z.output<typeof CreateClaimBody>;
  idempotency?: IdempotentWrite;
}

/** Claims in one group at most: bounds one transaction and its first request's wait. */
const CLAIM_GROUP_SIZE = 100;

/** Each app's queue (tests build several apps in one process, each with its own database). */
const queues = new WeakMap<RouteDeps, GroupQueue<ClaimRequest, ClaimWithOrganization>>();

/** Stores one claim, in the group of those that arrive beside it; answers it as stored. */
export function submitClaim(
  deps: RouteDeps,
  request: ClaimRequest,
): Promise<ClaimWithOrganization> {
  let queue = queues.get(deps);
  if (!queue) {
    queue = new GroupQueue((group) => storeClaimGroup(deps, group), CLAIM_GROUP_SIZE);
    queues.set(deps, queue);
  }
  return queue.submit(request);
}

/** Stores a group of requests: one transaction per scope among them; one outcome per request. */
export async function storeClaimGroup(
  deps: RouteDeps,
  requests: ClaimRequest[],
): Promise<Outcome[]> {
  const byScope = new Map<string | null, number[]>();
  requests.forEach((request, index) => {
    const key = request.scope.organizationId;
    byScope.set(key, [...(byScope.get(key) ?? []), index]);
  });
  const outcomes = new Array<Outcome>(requests.length);
  await Promise.all(
    [...byScope.values()].map(async (indexes) => {
      const part = indexes.map((index) => requests[index] as ClaimRequest);
      const stored = await deps.claimTransactions(() => storeOneScope(deps, part));
      indexes.forEach((index, i) => {
        outcomes[index] = stored[i] as Outcome;
      });
    }),
  );
  return outcomes;
}

/** A group's transaction is run again this many times when PostgreSQL ends it for a deadlock. */
const DEADLOCK_RETRIES = 3;

async function storeOneScope(deps: RouteDeps, requests: ClaimRequest[]): Promise<Outcome[]> {
  const scope = (requests[0] as ClaimRequest).scope;
  for (let attempt = 0; ; attempt++) {
    try {
      return await deps.db.transaction(async (tx) => {
        const outcomes = await placeTogether(deps, tx, scope, requests);
        for (const [index, request] of requests.entries()) {
          outcomes[index] ??= await storeInSavepoint(deps, tx, scope, request);
        }
        return outcomes as Outcome[];
      });
    } catch (error) {
      // Rolled back whole, so running it again stores each claim once.
      if (deadlockDetected(error) && attempt < DEADLOCK_RETRIES) continue;
      throw asConflict(error);
    }
  }
}

/**
 * One claim decided as POST /claims decides it, in a savepoint: a refusal (or an Idempotency-Key
 * another request holds) rolls back this claim alone. Any other error fails the transaction.
 */
export async function storeInSavepoint(
  deps: RouteDeps,
  tx: Transaction,
  scope: Scope,
  { body, idempotency }: Omit<ClaimRequest, "scope">,
): Promise<Outcome> {
  try {
    const value = await tx.transaction(async (savepoint) => {
      const made = await storeClaim(deps, savepoint, scope, body);
      if (idempotency) await recordCreatedObject(savepoint, idempotency, made.claim.id);
      return made;
    });
    return { ok: true, value };
  } catch (error) {
    if (error instanceof IdempotencyKeyTaken) return { ok: false, error };
    const refusal = asConflict(error);
    if (refusal instanceof ApiError && refusal.status < 500) return { ok: false, error: refusal };
    throw error;
  }
}

/** The set-based path: outcomes of the requests it placed; the others are left undefined. */
async function placeTogether(
  deps: RouteDeps,
  tx: Transaction,
  scope: Scope,
  requests: ClaimRequest[],
): Promise<(Outcome | undefined)[]> {
  const outcomes = new Array<Outcome | undefined>(requests.length);
  // A repeated Idempotency-Key: its first request goes on, the others are decided alone.
  const keys = new Set<string>();
  const grouped = requests.flatMap((request, index) => {
    const key = request.idempotency?.of.key;
    if (key !== undefined && keys.has(key)) return [];
    if (key !== undefined) keys.add(key);
    return [{ index, request }];
  });
  // A wallet for each request by email, in case its holder must be created.
  const byEmail = grouped.filter(({ request }) => request.body.holder_id === undefined);
  const walletIndexes = await takeWalletIndexes(deps.db, tx, byEmail.length);
  const walletOf = new Map(byEmail.map(({ index }, i) => [index, walletIndexes[i] as number]));
  const placed = await insertClaimGroup(
    tx,
    scope,
    grouped.map(({ index, request: { body } }) => {
      const walletIndex = walletOf.get(index);
      return {
        collectibleId: body.collectible_id,
        holderId: body.holder_id ?? null,
        email: body.holder_id === undefined ? (body.email ?? null) : null,
        externalId: body.external_id ?? null,
        wallet:
          walletIndex === undefined
            ? null
            : { index: walletIndex, address: deps.wallets.addressAt(walletIndex) },
      };
    }),
  );
  const created = new Set(placed.filter((p) => p.created).map((p) => p.holderId));
  const walletsUsed = new Set(placed.flatMap((p) => (p.created ? [p.walletIndex] : [])));
  giveBackWalletIndexes(
    deps.db,
    walletIndexes.filter((index) => !walletsUsed.has(index)),
  );
  // A claim goes to the first request for its holder (the answer is in arrival order); a repeat
  // (the same person by another letter case) is left to be refused alone.
  const claimed = new Set<string>();
  const stored = placed.flatMap(({ request, claim, organizationId }) => {
    if (!claim || claimed.has(claim.id)) return [];
    claimed.add(claim.id);
    const { index, request: asked } = grouped[request] as (typeof grouped)[number];
    return [{ index, request: asked, claim, organizationId }];
  });
  const keyed = stored.filter((s) => s.request.idempotency);
  const taken = await recordCreatedObjects(
    tx,
    keyed.map((s) => ({ write: s.request.idempotency as IdempotentWrite, id: s.claim.id })),
  );
  const refused = new Set([...taken].map((i) => keyed[i]?.index));
  const kept = stored.filter((s) => !refused.has(s.index));
  await deleteNewClaims(
    tx,
    stored.filter((s) => refused.has(s.index)).map((s) => s.claim),
  );
  // Users made for requests that did not keep a claim: those requests start again alone.
  const keptHolders = new Set(kept.map((s) => s.claim.holderId));
  await deleteNewUsers(
    tx,
    [...created].filter((id) => !keptHolders.has(id)),
  );
  for (const index of refused) {
    if (index !== undefined) outcomes[index] = { ok: false, error: new IdempotencyKeyTaken() };
  }
  for (const { index, claim, organizationId } of kept) {
    outcomes[index] = { ok: true, value: { claim, organizationId } };
  }
  return outcomes;
}
