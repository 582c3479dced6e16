/**
 * Moving a user's tokens home, from the wallet the service derived and keeps for them to the
 * wallet they linked (services/walletLink.ts):
 *
 * - POST …/transfers-home stores one move per token (one claim's, or every token the service
 *   wallet holds for the user) and wakes the relayer, whose step `chain/homeSender.ts` funds the
 *   service wallet's gas and sends. A token with a move under way is not moved twice: a second
 *   request answers that move. An Idempotency-Key's answer is recorded in the same transaction.
 * - GET …/transfers-home follows them: pending, sent, confirmed or failed.
 */

import { type IdempotentWrite, recordAnswer } from "../db/idempotencyKeys.ts";
import {
  claimsHeldAt,
  listMoves,
  type MoveWithToken,
  storeMoves,
  userHasClaim,
} from "../db/transfersHome.ts";
import { findUser } from "../db/users.ts";
import type { RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import { chainNotConfigured, notFound, walletRefusal } from "../errorCatalogue.ts";
import type { CreateTransfersHomeBody } from "../schemas/walletLink.ts";
import type { z } from "../schemas/zod.ts";
import { inTransaction } from "./writes.ts";

/** Moves a list answers: the newest. */
export const MOVES_LISTED = 100;

/**
 * Stores the moves and answers them presented by `present`: an Idempotency-Key's answer is
 * recorded in the same transaction, so it is the presented body.
 */
export async function moveHome<Item>(
  deps: RouteDeps,
  scope: Scope,
  userId: string,
  body: z.output<typeof CreateTransfersHomeBody>,
  present: (move: MoveWithToken) => Item,
  idempotency?: IdempotentWrite,
): Promise<{ data: Item[] }> {
  const chain = deps.chain;
  const answer = await inTransaction(deps, async (tx) => {
    const user = await findUser(tx, userId, scope);
    if (!user) throw notFound("user", userId);
    if (!chain) throw chainNotConfigured();
    if (!user.linkedWallet) {
      throw walletRefusal(
        "no_linked_wallet",
        "linked_wallet",
        "the user has linked no wallet: POST /users/{id}/wallet-link first",
      );
    }
    if (user.walletIndex === null) {
      throw walletRefusal(
        "no_service_wallet",
        "wallet_address",
        "the user's tokens are in their own wallet already (the service keeps none for them)",
      );
    }
    const claimId = body.claim_id;
    if (claimId && !(await userHasClaim(tx, user.id, claimId))) {
      throw notFound("claim", claimId, "claim_id", "among the user's claims");
    }
    const held = await claimsHeldAt(tx, user.id, user.walletAddress, claimId, user.linkedWallet);
    if (held.length === 0) {
      throw walletRefusal(
        "token_not_in_service_wallet",
        claimId ? "claim_id" : "user",
        claimId
          ? "the claim's token is not in the service's wallet (not confirmed yet, or moved)"
          : "no token of the user is in the service's wallet",
      );
    }
    const moves = await storeMoves(
      tx,
      held.map((claim) => ({
        userId: user.id,
        claimId: claim.id,
        fromAddress: user.walletAddress,
        toAddress: user.linkedWallet as string,
      })),
    );
    const data = { data: moves.map(present) };
    if (idempotency)
      await recordAnswer(tx, idempotency, { status: 202, body: data, location: null });
    return data;
  });
  chain?.wakeRelayer();
  return answer;
}

/** The user's latest moves, newest first. */
export async function listMovesHome(
  deps: RouteDeps,
  scope: Scope,
  userId: string,
): Promise<MoveWithToken[]> {
  const user = await findUser(deps.db, userId, scope);
  if (!user) throw notFound("user", userId);
  return listMoves(deps.db, user.id, MOVES_LISTED);
}
