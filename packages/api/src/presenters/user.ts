import type { User } from "../schemas/users.ts";
import type { z } from "../schemas/zod.ts";
import type { UserView } from "../services/views.ts";
import { momentOf, type PresentContext, snakeCased, timestampsOf } from "./fields.ts";

export function presentUser(
  { row, claimedCount }: UserView,
  ctx: PresentContext,
): z.input<typeof User> {
  return {
    ...snakeCased(row, ["id", "organizationId", "email", "name", "externalId", "walletAddress"]),
    linked_wallet: row.linkedWallet,
    linked_at: momentOf(row.linkedAt),
    blockchain_id: ctx.blockchainId,
    claimed_count: claimedCount,
    is_active: row.isActive,
    ...timestampsOf(row),
  };
}
