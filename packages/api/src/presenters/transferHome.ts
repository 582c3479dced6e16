/** A move of a token home (to the user's linked wallet) as the API answers it. */
import { tokenIdHex } from "@collectibles/contracts";
import type { MoveWithToken } from "../db/transfersHome.ts";
import type { TransferHome } from "../schemas/walletLink.ts";
import type { z } from "../schemas/zod.ts";
import { type PresentContext, timestampsOf } from "./fields.ts";

export function presentTransferHome(
  move: MoveWithToken,
  ctx: PresentContext,
): z.input<typeof TransferHome> {
  return {
    id: move.id,
    user_id: move.userId,
    claim_id: move.claimId,
    token_id: tokenIdHex(move.collectibleId, move.claimId),
    blockchain_id: ctx.blockchainId,
    from_address: move.fromAddress,
    to_address: move.toAddress,
    status: move.status,
    transaction_hash: move.transactionHash,
    failure_reason: move.failureReason,
    ...timestampsOf(move),
  };
}
