/** Claims as answered and as accepted (validation, types and the OpenAPI document). */
import { ChainStatus, TransactionHash } from "./collectibles.ts";
import { BlockchainId, filterParam, PageQuery, Timestamp, Uuid, WalletAddress } from "./common.ts";
import { Email } from "./users.ts";
import { z } from "./zod.ts";

export const Claim = z
  .strictObject({
    id: Uuid,
    collectible_id: Uuid,
    holder_id: Uuid.nullable().openapi({
      description: "The organization's user holding the token now; null for an outside address",
    }),
    holder_wallet_address: WalletAddress.openapi({
      description: "Address holding the token now (follows on-chain transfers)",
    }),
    claimed_by_id: Uuid.openapi({ description: "The user who claimed" }),
    minted_to: WalletAddress,
    external_id: z.string().nullable(),
    token_id: z
      .string()
      .regex(/^0x[0-9a-f]+$/)
      .openapi({ description: "ERC-1155 token id in hex: collectible id << 128 | claim id" }),
    edition: z.number().int().min(1).nullable().openapi({ description: "Null until minted" }),
    blockchain_id: BlockchainId,
    contract_address: WalletAddress.nullable(),
    status: ChainStatus,
    transaction_hash: TransactionHash,
    failure_reason: z.string().nullable(),
    is_active: z.boolean().openapi({ description: "True once confirmed on-chain" }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Claim");

export const CreateClaimBody = z
  .strictObject({
    collectible_id: Uuid,
    holder_id: Uuid.optional().openapi({ description: "The receiving user; or give email" }),
    email: Email.optional().openapi({
      description: "The receiving user's email, created in the organization if new",
    }),
    external_id: z.string().trim().min(1, "must not be empty").max(200).nullish(),
  })
  .superRefine((body, ctx) => {
    if ((body.holder_id === undefined) === (body.email === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["holder_id"],
        message: "give exactly one of holder_id and email",
        params: { code: "holder_required" },
      });
    }
  })
  .openapi("CreateClaim");

export const ListClaimsQuery = z.strictObject({
  ...PageQuery,
  holder_id: filterParam("holder_id", Uuid, "Claims made by this user"),
  collectible_id: filterParam("collectible_id", Uuid, "Claims of this collectible"),
  external_id: filterParam("external_id", z.string().min(1), "Exact external_id"),
});

export const CLAIM_READ_ONLY = {
  id: "is set by the service",
  token_id: "is set by the service",
  status: "is set by the service",
  transaction_hash: "is set by the service",
  wallet_address: "is the holder's; give holder_id or email",
  is_active: "is set by the service",
};
