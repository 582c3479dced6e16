/** A claim, with what the chain says of its token, as the API answers it. */

import { tokenIdHex } from "@collectibles/contracts";
import type { Claim } from "../schemas/claims.ts";
import type { z } from "../schemas/zod.ts";
import type { ClaimView } from "../services/views.ts";
import { blockNumberOf, finalizedAtOf, type PresentContext, timestampsOf } from "./fields.ts";

export function presentClaim(view: ClaimView, ctx: PresentContext): z.input<typeof Claim> {
  const claim = view.row;
  return {
    id: claim.id,
    collectible_id: claim.collectibleId,
    holder_id: view.holderId,
    holder_wallet_address: view.holderAddress,
    claimed_by_id: claim.holderId,
    minted_to: claim.mintedTo,
    external_id: claim.externalId,
    token_id: tokenIdHex(claim.collectibleId, claim.id),
    edition: view.edition,
    blockchain_id: ctx.blockchainId,
    contract_address: ctx.contractAddress,
    status: claim.status,
    transaction_hash: view.transactionHash,
    failure_reason: claim.failureReason,
    is_active: claim.status === "confirmed",
    block_number: blockNumberOf(claim),
    finalized_at: finalizedAtOf(claim),
    ...timestampsOf(claim),
  };
}
