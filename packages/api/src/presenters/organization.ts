/** An organization row as the API answers it. */
import type { OrganizationRow } from "../db/organizations.ts";
import { imageUrls } from "../images/storeImage.ts";
import type { Organization } from "../schemas/organizations.ts";
import type { z } from "../schemas/zod.ts";
import type { PresentContext } from "./context.ts";

export function presentOrganization(
  row: OrganizationRow,
  ctx: PresentContext,
): z.input<typeof Organization> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parent_id: row.parentId,
    external_id: row.externalId,
    wallet_address: row.walletAddress,
    blockchain_id: ctx.blockchainId,
    logo: imageUrls(ctx.storage, row.logo, ctx.baseUrl),
    cover: imageUrls(ctx.storage, row.cover, ctx.baseUrl),
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
