/** Claims as answered and as accepted (validation, types and the OpenAPI document). */
import { ChainStatus, OnChainFields } from "./collectibles.ts";
import { ErrorResponse, FinalizedFilter, listQuery, readOnly } from "./common.ts";
import { ExternalId, RecordTimes, Uuid, WalletAddress } from "./fields.ts";
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
    ...OnChainFields,
    ...RecordTimes,
  })
  .openapi("Claim");

export const CreateClaimBody = z
  .strictObject({
    collectible_id: Uuid,
    holder_id: Uuid.optional().openapi({ description: "The receiving user; or give email" }),
    email: Email.optional().openapi({
      description: "The receiving user's email, created in the organization if new",
    }),
    external_id: ExternalId.nullish(),
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

export const ListClaimsQuery = listQuery({
  holder_id: [Uuid, "Claims made by this user"],
  collectible_id: [Uuid, "Claims of this collectible"],
  external_id: [z.string().min(1), "Exact external_id"],
  status: [ChainStatus, "Only claims in this state: pending, confirmed or failed"],
  finalized: FinalizedFilter,
  holder_wallet_address: [
    WalletAddress,
    "Claims whose holder_wallet_address is this (any letter case): the token's holder after on-chain transfers, taken in from the indexer within about a second",
  ],
});

export const CLAIM_READ_ONLY = readOnly(
  ["id", "token_id", "status", "transaction_hash", "is_active", "block_number", "finalized_at"],
  { wallet_address: "is the holder's; give holder_id or email" },
);

/** Most claims in one POST /claims/batch. */
export const MAX_BATCH_CLAIMS = 100;

export const CreateClaimBatchBody = z
  .strictObject({
    items: z
      .array(CreateClaimBody)
      .min(1)
      .max(MAX_BATCH_CLAIMS)
      .openapi({
        description: `1 to ${MAX_BATCH_CLAIMS} claims, each as POST /claims takes it`,
      }),
  })
  .openapi("CreateClaimBatch");

export const ClaimBatchResult = z
  .strictObject({
    index: z.number().int().min(0).openapi({ description: "The item's place in `items`" }),
    status: z.enum(["created", "refused"]),
    claim: Claim.optional().openapi({ description: "The stored claim (pending), when created" }),
    error: ErrorResponse.shape.error
      .optional()
      .openapi({ description: "Why this item was refused, as POST /claims would answer it" }),
  })
  .openapi("ClaimBatchResult");

export const ClaimBatchAnswer = z
  .strictObject({ data: z.array(ClaimBatchResult) })
  .openapi("ClaimBatchAnswer");
