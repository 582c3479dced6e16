/** Collectibles as answered and as accepted (validation, types and the OpenAPI document). */
import { FinalizedFilter, listQuery, readOnly } from "./common.ts";
import {
  BlockchainId,
  ExternalId,
  Name,
  RecordTimes,
  Timestamp,
  Uuid,
  WalletAddress,
} from "./fields.ts";
import { ImageFile, ImageInput, ImageUrls } from "./images.ts";
import { z } from "./zod.ts";

export const ChainStatus = z.enum(["pending", "confirmed", "failed"]).openapi("ChainStatus", {
  description:
    "pending: stored, being sent or mined but not yet indexed; confirmed: on-chain and " +
    "indexed; failed: refused by the chain (see failure_reason)",
});

export const TransactionHash = z
  .string()
  .regex(/^0x[0-9a-f]{64}$/)
  .nullable()
  .openapi({ description: "Hash of the transaction that made it; null until sent" });

/** Where an on-chain object stands, as collectibles and claims both answer it. */
export const OnChainFields = {
  blockchain_id: BlockchainId,
  contract_address: WalletAddress.nullable(),
  status: ChainStatus,
  transaction_hash: TransactionHash,
  failure_reason: z.string().nullable(),
  is_active: z.boolean().openapi({ description: "True once confirmed on-chain" }),
  block_number: z
    .number()
    .int()
    .min(0)
    .nullable()
    .openapi({
      description:
        "The block its creation or mint is recorded in (the block of its transaction; when found " +
        "on the chain without it, after a crash or a reorg, a block at or after it). Null until " +
        "mined; pending again without it when a reorg takes the block back",
    }),
  finalized_at: Timestamp.nullable().openapi({
    description:
      "When its block became final (at or below the chain's finalized block): a reorg can no " +
      "longer take it back. Null until then; a confirmation before it can be withdrawn " +
      "(`*.reorged` event) and made again",
  }),
};

export const Collectible = z
  .strictObject({
    id: Uuid,
    organization_id: Uuid,
    creator_id: Uuid.nullable(),
    name: z.string(),
    description: z.string().nullable(),
    mime_type: z.string().nullable(),
    artwork: z.string().nullable(),
    cover: z.union([ImageUrls, z.null()]),
    external_id: z.string().nullable(),
    total_count: z.number().int().min(1),
    claimed_count: z
      .number()
      .int()
      .min(0)
      .openapi({ description: "Minted so far, as the chain (the indexer) counts them" }),
    pending_count: z
      .number()
      .int()
      .min(0)
      .openapi({ description: "Claims accepted and not yet confirmed on-chain" }),
    available_count: z.number().int().min(0).openapi({
      description:
        "What a new claim can still take: total_count minus the confirmed and pending claims",
    }),
    ...OnChainFields,
    ...RecordTimes,
  })
  .openapi("Collectible");

const MAX_TOTAL = 2_147_483_647;

export const CreateCollectibleBody = z
  .strictObject({
    organization_id: Uuid,
    name: Name,
    description: z.string().max(5_000).nullish(),
    mime_type: z
      .string()
      // No regex flags: the pattern is published as is in the OpenAPI document.
      .regex(/^[A-Za-z]+\/[A-Za-z0-9.+-]+$/, "must be a MIME type such as image/png")
      .max(100)
      .nullish()
      .openapi({ example: "image/png" }),
    artwork: z
      .url({ protocol: /^(https?|ipfs|ar)$/, error: "must be an http(s), ipfs or ar URL" })
      .max(2_000)
      .nullish()
      .openapi({ description: "URL of the artwork; written on-chain as the token's image" }),
    cover: ImageInput.nullish(),
    total_count: z.number().int().min(1).max(MAX_TOTAL),
    creator_id: Uuid.nullish().openapi({ description: "A user of the same organization" }),
    external_id: ExternalId.nullish(),
    claimed_count: z
      .number()
      .int()
      .optional()
      .openapi({ description: "Derived; if given it must be 0" }),
    pending_count: z
      .number()
      .int()
      .optional()
      .openapi({ description: "Derived; if given it must be 0" }),
    available_count: z
      .number()
      .int()
      .optional()
      .openapi({ description: "Derived; if given it must equal total_count" }),
  })
  .superRefine((body, ctx) => {
    const inconsistent = (field: string, message: string) =>
      ctx.addIssue({ code: "custom", path: [field], message, params: { code: "inconsistent" } });
    if (body.claimed_count !== undefined && body.claimed_count !== 0) {
      inconsistent("claimed_count", "is derived; a new collectible has 0 claimed");
    }
    if (body.pending_count !== undefined && body.pending_count !== 0) {
      inconsistent("pending_count", "is derived; a new collectible has 0 pending");
    }
    if (body.available_count !== undefined && body.available_count !== body.total_count) {
      inconsistent("available_count", "is derived; a new collectible has total_count available");
    }
  })
  .openapi("CreateCollectible");

/** In multipart/form-data the cover is a file part; the other fields are the same. */
export const CreateCollectibleForm = z
  .strictObject({ ...CreateCollectibleBody.shape, cover: ImageFile.optional() })
  .openapi("CreateCollectibleForm");

/** The integers of a collectible's form, read from their text parts. */
export const COLLECTIBLE_FORM_INTEGERS = [
  "total_count",
  "claimed_count",
  "pending_count",
  "available_count",
] as const;

export const ListCollectiblesQuery = listQuery({
  organization_id: [Uuid, "Collectibles of this organization"],
  creator_id: [Uuid, "Collectibles created by this user"],
  external_id: [z.string().min(1), "Exact external_id"],
  finalized: FinalizedFilter,
});

export const COLLECTIBLE_READ_ONLY = readOnly([
  "id",
  "block_number",
  "finalized_at",
  "blockchain_id",
  "contract_address",
  "status",
  "transaction_hash",
  "is_active",
]);
