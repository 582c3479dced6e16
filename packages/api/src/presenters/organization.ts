import { imageUrls } from "../images/storeImage.ts";
import type { Organization } from "../schemas/organizations.ts";
import type { z } from "../schemas/zod.ts";
import type { OrganizationView } from "../services/views.ts";
import { type PresentContext, snakeCased, timestampsOf } from "./fields.ts";

export function presentOrganization(
  { row }: OrganizationView,
  ctx: PresentContext,
): z.input<typeof Organization> {
  return {
    ...snakeCased(row, ["id", "name", "description", "parentId", "externalId", "walletAddress"]),
    claims_to_linked_wallet: row.claimsToLinkedWallet,
    blockchain_id: ctx.blockchainId,
    logo: imageUrls(ctx.storage, row.logo, ctx.baseUrl),
    cover: imageUrls(ctx.storage, row.cover, ctx.baseUrl),
    is_active: row.isActive,
    ...timestampsOf(row),
  };
}
