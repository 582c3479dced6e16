/**
 * POST /claims under load: the claims that arrive while a group is being stored are stored
 * together as the next group (lib/groupQueue.ts), in one transaction per scope, with a handful of
 * statements for the whole group instead of nine round trips and a commit per claim: the
 * collectibles locked once, holders found and created together (their wallet indexes from a
 * reserve taken ahead), the claims inserted and their places in the supplies taken in one
 * statement, Idempotency-Key records written together.
 *
 * A request this path cannot place (an unknown or failed collectible, a holder not found or
 * created by a concurrent request, a claim a unique index refuses, the supply running out, a key
 * repeated in the group) is then decided alone, in a savepoint of the same transaction, by the
 * one-claim path (`storeClaim`): each request gets exactly the answer it would get alone.
 */

import type { ClaimWithOrganization } from "../../db/claims.ts";
import { deleteNewClaims, insertClaimsTakingPlaces } from "../../db/claims.ts";
import { type CollectibleRow, lockCollectibles } from "../../db/collectibles.ts";
import type { Transaction } from "../../db/driver/client.ts";
import { deadlockDetected } from "../../db/driver/pgError.ts";
import {
  IdempotencyKeyTaken,
  type IdempotentWrite,
  recordCreatedObject,
  recordCreatedObjects,
} from "../../db/idempotencyKeys.ts";
import { sendingClaimsToLinkedWallets } from "../../db/organizations.ts";
import {
  createUsers,
  deleteNewUsers,
  findUsers,
  type UserRow,
  usersByEmail,
} from "../../db/users.ts";
import { takeWalletIndexes } from "../../db/walletIndexes.ts";
import type { RouteDeps } from "../../deps.ts";
import type { Scope } from "../../domain/auth.ts";
import { asConflict } from "../../errorCatalogue.ts";
import { ApiError } from "../../errors.ts";
import { GroupQueue, type Settled } from "../../lib/groupQueue.ts";
import type { CreateClaimBody } from "../../schemas/claims.ts";
import type { z } from "../../schemas/zod.ts";
import { newClaim, storeClaim } from "./storeClaim.ts";

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

/** A request given a place in its collectible's supply, and then its holder. */
interface Candidate {
  index: number;
  request: ClaimRequest;
  collectible: CollectibleRow;
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
  const candidates = await takePlaces(tx, scope, requests);
  const { holderOf, created } = await findOrCreateHolders(deps, tx, scope, candidates);
  const placed = candidates.filter(
    (c) => holderOf.get(c.index)?.organizationId === c.collectible.organizationId,
  );
  // Only holders with a linked wallet ask whether their organization mints there.
  const linkedOrganizations = placed
    .filter((c) => holderOf.get(c.index)?.linkedWallet)
    .map((c) => c.collectible.organizationId);
  const toLinked = await sendingClaimsToLinkedWallets(tx, [...new Set(linkedOrganizations)]);
  const inserted = await insertClaimsTakingPlaces(
    tx,
    placed.map(({ index, request, collectible }) =>
      newClaim(
        collectible.id,
        holderOf.get(index) as UserRow,
        request.body,
        toLinked.has(collectible.organizationId),
      ),
    ),
  );
  const claimOf = new Map(
    inserted.map((claim) => [`${claim.collectibleId}:${claim.holderId}`, claim]),
  );
  // A claim goes to the first request for its holder; a repeat (the same person by another
  // letter case) is left to be refused alone.
  const stored = placed.flatMap((c) => {
    const key = `${c.collectible.id}:${holderOf.get(c.index)?.id}`;
    const claim = claimOf.get(key);
    claimOf.delete(key);
    return claim ? [{ ...c, claim }] : [];
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
  for (const { index, claim, collectible } of kept) {
    outcomes[index] = { ok: true, value: { claim, organizationId: collectible.organizationId } };
  }
  return outcomes;
}

/**
 * Locks the requests' collectibles and gives places, in arrival order, up to what is left of
 * each supply. Left out: unknown or failed collectibles, requests past the supply, and a repeated
 * Idempotency-Key (its first request goes on).
 */
async function takePlaces(
  tx: Transaction,
  scope: Scope,
  requests: ClaimRequest[],
): Promise<Candidate[]> {
  const ids = [...new Set(requests.map((r) => r.body.collectible_id))];
  const collectibles = new Map(
    (await lockCollectibles(tx, ids, scope)).map((row) => [row.id, row]),
  );
  const left = new Map(
    [...collectibles.values()].map((c) => [c.id, c.totalCount - c.reservedCount]),
  );
  const keys = new Set<string>();
  return requests.flatMap((request, index) => {
    const collectible = collectibles.get(request.body.collectible_id);
    const places = collectible ? (left.get(collectible.id) ?? 0) : 0;
    const key = request.idempotency?.of.key;
    if (!collectible || collectible.status === "failed" || places <= 0) return [];
    if (key !== undefined && keys.has(key)) return [];
    if (key !== undefined) keys.add(key);
    left.set(collectible.id, places - 1);
    return [{ index, request, collectible }];
  });
}

/**
 * Each candidate's holder: the user `holder_id` names, or the user with the email in the
 * collectible's organization, created (with a fresh wallet) when there is none. `created` holds
 * the users made here.
 */
async function findOrCreateHolders(
  deps: RouteDeps,
  tx: Transaction,
  scope: Scope,
  candidates: Candidate[],
): Promise<{ holderOf: Map<number, UserRow>; created: Set<string> }> {
  const holderIds = candidates.flatMap((c) => c.request.body.holder_id ?? []);
  const byId = new Map((await findUsers(tx, [...new Set(holderIds)], scope)).map((u) => [u.id, u]));
  const emailKey = (organizationId: string, email: string) =>
    `${organizationId}:${email.toLowerCase()}`;
  const wanted = new Map<string, { organizationId: string; email: string }>();
  for (const { request, collectible } of candidates) {
    const email = request.body.holder_id === undefined ? request.body.email : undefined;
    if (email === undefined) continue;
    const organizationId = collectible.organizationId;
    if (!wanted.has(emailKey(organizationId, email))) {
      wanted.set(emailKey(organizationId, email), { organizationId, email });
    }
  }
  const byEmail = new Map(
    (await usersByEmail(tx, [...wanted.values()])).map((u) => [
      emailKey(u.organizationId, u.email),
      u,
    ]),
  );
  const missing = [...wanted].filter(([key]) => !byEmail.has(key)).map(([, pair]) => pair);
  const indexes = await takeWalletIndexes(deps.db, tx, missing.length);
  const made = await createUsers(
    tx,
    missing.map((pair, i) => {
      const walletIndex = indexes[i] as number;
      return { ...pair, walletIndex, walletAddress: deps.wallets.addressAt(walletIndex) };
    }),
  );
  for (const user of made) byEmail.set(emailKey(user.organizationId, user.email), user);
  const holderOf = new Map<number, UserRow>();
  for (const { index, request, collectible } of candidates) {
    const { holder_id: holderId, email } = request.body;
    const user =
      holderId !== undefined
        ? byId.get(holderId)
        : byEmail.get(emailKey(collectible.organizationId, email as string));
    if (user) holderOf.set(index, user);
  }
  return { holderOf, created: new Set(made.map((u) => u.id)) };
}
