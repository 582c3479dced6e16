import { imageUrls } from "../images/storeImage.ts";
import type { Collectible } from "../schemas/collectibles.ts";
import type { z } from "../schemas/zod.ts";
import type { CollectibleView } from "../services/views.ts";
import {
  blockNumberOf,
  finalizedAtOf,
  type PresentContext,
  snakeCased,
  timestampsOf,
} from "./fields.ts";

export function presentCollectible(
  { row, claimedCount, pendingCount }: CollectibleView,
  ctx: PresentContext,
): z.input<typeof Collectible> {
  return {
    ...snakeCased(row, ["id", "organizationId", "creatorId", "name", "description", "mimeType"]),
    artwork: row.artwork,
    cover: imageUrls(ctx.storage, row.cover, ctx.baseUrl),
    external_id: row.externalId,
    total_count: row.totalCount,
    claimed_count: claimedCount,
    pending_count: pendingCount,
    // What POST /claims would still accept: the supply counter counts every claim accepted and
    // not failed, so a place taken by a pending claim is not offered again.
    available_count: Math.max(0, row.totalCount - row.reservedCount),
    blockchain_id: ctx.blockchainId,
    contract_address: ctx.contractAddress,
    ...snakeCased(row, ["status", "transactionHash", "failureReason"]),
    is_active: row.status === "confirmed",
    block_number: blockNumberOf(row),
    finalized_at: finalizedAtOf(row),
    ...timestampsOf(row),
  };
}
