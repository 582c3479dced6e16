/**
 * /collectibles: numbered editions with a fixed total_count, created on-chain by the relayer.
 *
 * - POST stores the collectible (the intent) and answers once the chain has it and the indexer
 *   has seen it (201), or after CONFIRM_TIMEOUT_MS with the pending object (202).
 * - claimed_count / available_count are derived from the chain (the indexer); in a create body
 *   they may only repeat what a new collectible has (0 and total_count), anything else is a 400.
 * - creator_id must be an active user of the same organization.
 * - Metadata is immutable on-chain, so there is no PATCH or DELETE.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { type Request, Router } from "express";
import { getAddress } from "viem";
import type { Queryable } from "../db/client.ts";
import {
  type CollectibleRow,
  confirmedClaimCounts,
  findCollectible,
  insertCollectible,
  listCollectibles,
} from "../db/collectibles.ts";
import { findOrganization } from "../db/organizations.ts";
import { paginationOf } from "../db/pagination.ts";
import type { StoredImage } from "../db/schema.ts";
import { findUser } from "../db/users.ts";
import type { AppDeps, RouteDeps } from "../deps.ts";
import { NotFoundError, ServiceUnavailableError, ValidationError } from "../errors.ts";
import { decodeDataUri } from "../images/decodeDataUri.ts";
import { imageUrls, storeImage } from "../images/storeImage.ts";
import { authOf } from "../middleware/auth.ts";
import { jsonBody, requireContentType } from "../middleware/bodyParsers.ts";
import { idempotency } from "../middleware/idempotency.ts";
import { parseInput, rejectFields } from "../middleware/validate.ts";
import { z } from "../openapi/zod.ts";
import { asConflict } from "./conflicts.ts";
import { blockchainIdOf } from "./organizations.ts";
import {
  BlockchainId,
  baseUrlOf,
  dataEnvelope,
  errorResponses,
  filterParam,
  IdempotencyHeaders,
  IdParams,
  ImageInput,
  ImageUrls,
  listEnvelope,
  PageQuery,
  Timestamp,
  Uuid,
  WalletAddress,
} from "./shared.ts";

// ---------------------------------------------------------------------------------------------
// Schemas

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
    claimed_count: z.number().int().min(0).openapi({ description: "Minted so far (on-chain)" }),
    available_count: z.number().int().min(0).openapi({ description: "total_count - claimed" }),
    blockchain_id: BlockchainId,
    contract_address: WalletAddress.nullable(),
    status: ChainStatus,
    transaction_hash: TransactionHash,
    failure_reason: z.string().nullable(),
    is_active: z.boolean().openapi({ description: "True once confirmed on-chain" }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Collectible");

const MAX_TOTAL = 2_147_483_647;

export const CreateCollectibleBody = z
  .strictObject({
    organization_id: Uuid,
    name: z.string().trim().min(1, "must not be empty").max(200),
    description: z.string().max(5_000).nullish(),
    mime_type: z
      .string()
      .regex(/^[a-z]+\/[a-z0-9.+-]+$/i, "must be a MIME type such as image/png")
      .max(100)
      .nullish(),
    artwork: z
      .url({ protocol: /^(https?|ipfs|ar)$/, error: "must be an http(s), ipfs or ar URL" })
      .max(2_000)
      .nullish()
      .openapi({ description: "URL of the artwork; written on-chain as the token's image" }),
    cover: ImageInput.nullish(),
    total_count: z.number().int().min(1).max(MAX_TOTAL),
    creator_id: Uuid.nullish().openapi({ description: "A user of the same organization" }),
    external_id: z.string().trim().min(1, "must not be empty").max(200).nullish(),
    claimed_count: z
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
  .openapi("CreateCollectible");

export const ListCollectiblesQuery = z.strictObject({
  ...PageQuery,
  organization_id: filterParam("organization_id", Uuid, "Collectibles of this organization"),
  creator_id: filterParam("creator_id", Uuid, "Collectibles created by this user"),
  external_id: filterParam("external_id", z.string().min(1), "Exact external_id"),
});

const NOT_WRITABLE = {
  id: "is set by the service",
  blockchain_id: "is set by the service",
  contract_address: "is set by the service",
  status: "is set by the service",
  transaction_hash: "is set by the service",
  is_active: "is set by the service",
};

// ---------------------------------------------------------------------------------------------
// Serialization

interface Counts {
  claimed: number;
}

/** On-chain claimed counts for these rows: the indexer, or the API's records when it is down. */
export async function claimedCountsOf(
  deps: AppDeps,
  rows: CollectibleRow[],
  db: Queryable = deps.db,
): Promise<Map<string, Counts>> {
  const ids = rows.filter((row) => row.status === "confirmed").map((row) => row.id);
  const result = new Map<string, Counts>();
  if (ids.length === 0) return result;
  const indexer = deps.chain?.indexer;
  if (indexer) {
    try {
      const indexed = await indexer.collectiblesByIds(ids);
      for (const [id, row] of indexed) result.set(id, { claimed: Number(row.claimedCount) });
      if (result.size === ids.length) return result;
    } catch (error) {
      deps.logger.warn({ err: (error as Error).message }, "indexer unavailable; counting locally");
    }
  }
  const local = await confirmedClaimCounts(db, ids);
  for (const id of ids) {
    if (!result.has(id)) result.set(id, { claimed: local.get(id) ?? 0 });
  }
  return result;
}

export function toCollectible(
  row: CollectibleRow,
  counts: Map<string, Counts>,
  deps: AppDeps,
  baseUrl: string,
) {
  const claimed = counts.get(row.id)?.claimed ?? 0;
  return {
    id: row.id,
    organization_id: row.organizationId,
    creator_id: row.creatorId,
    name: row.name,
    description: row.description,
    mime_type: row.mimeType,
    artwork: row.artwork,
    cover: imageUrls(deps.storage, row.cover, baseUrl),
    external_id: row.externalId,
    total_count: row.totalCount,
    claimed_count: claimed,
    available_count: Math.max(0, row.totalCount - claimed),
    blockchain_id: blockchainIdOf(deps.config.CHAIN_ID),
    contract_address: deps.chain ? getAddress(deps.chain.client.contract) : null,
    status: row.status,
    transaction_hash: row.transactionHash,
    failure_reason: row.failureReason,
    is_active: row.status === "confirmed",
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  } satisfies z.input<typeof Collectible>;
}

// ---------------------------------------------------------------------------------------------
// Routes

export function collectibleNotFound(id: string, field?: string) {
  return new NotFoundError(
    "collectible_not_found",
    field ? `${field}: no collectible ${id}` : `No collectible ${id}`,
    field ? [{ field, code: "not_found", message: "no such collectible" }] : undefined,
  );
}

export function chainNotConfigured() {
  return new ServiceUnavailableError(
    "chain_not_configured",
    "This API runs without a chain (RPC_URL is not set): collectibles and claims cannot be created",
  );
}

function bodyOf(req: Request): unknown {
  return req.body;
}

export function collectiblesRouter(deps: RouteDeps): Router {
  const { db } = deps;
  const router = Router();

  router.get("/", async (req, res) => {
    const query = parseInput(ListCollectiblesQuery, req.query, "query");
    const { rows, count } = await listCollectibles(
      db,
      authOf(res),
      {
        organizationId: query.organization_id,
        creatorId: query.creator_id,
        externalId: query.external_id,
      },
      query,
      deps.counts,
    );
    const counts = await claimedCountsOf(deps, rows);
    const baseUrl = baseUrlOf(req, deps.config.PUBLIC_URL);
    res.json({
      pagination: paginationOf(query, count),
      data: rows.map((row) => toCollectible(row, counts, deps, baseUrl)),
    });
  });

  router.get("/:id", async (req, res) => {
    const { id } = parseInput(IdParams, req.params, "path");
    const row = await findCollectible(db, id, authOf(res));
    if (!row) throw collectibleNotFound(id);
    const counts = await claimedCountsOf(deps, [row]);
    res.json({ data: toCollectible(row, counts, deps, baseUrlOf(req, deps.config.PUBLIC_URL)) });
  });

  router.post(
    "/",
    requireContentType(["application/json"]),
    jsonBody(deps.config.MAX_JSON_BYTES + 2 * deps.config.MAX_IMAGE_BYTES),
    idempotency(deps),
    async (req, res) => {
      const scope = authOf(res);
      const raw = bodyOf(req);
      rejectFields(raw, NOT_WRITABLE);
      const body = parseInput(CreateCollectibleBody, raw, "body");
      const inconsistent = [];
      if (body.claimed_count !== undefined && body.claimed_count !== 0) {
        inconsistent.push({
          field: "claimed_count",
          code: "inconsistent",
          message: "is derived; a new collectible has 0 claimed",
        });
      }
      if (body.available_count !== undefined && body.available_count !== body.total_count) {
        inconsistent.push({
          field: "available_count",
          code: "inconsistent",
          message: "is derived; a new collectible has total_count available",
        });
      }
      if (inconsistent.length > 0) {
        throw new ValidationError(
          `Invalid request body: ${inconsistent.map((d) => `${d.field}: ${d.message}`).join("; ")}`,
          inconsistent,
        );
      }
      const chain = deps.chain;
      if (!chain) throw chainNotConfigured();
      let cover: StoredImage | null = null;
      if (body.cover) {
        const max = deps.config.MAX_IMAGE_BYTES;
        cover = await storeImage(
          deps.storage,
          decodeDataUri(body.cover, "cover", max),
          "cover",
          max,
        );
      }
      let row: CollectibleRow;
      try {
        row = await db.transaction(async (tx) => {
          const organization = await findOrganization(tx, body.organization_id, scope, "share");
          if (!organization) {
            throw new NotFoundError(
              "organization_not_found",
              `organization_id: no organization ${body.organization_id}`,
              [{ field: "organization_id", code: "not_found", message: "no such organization" }],
            );
          }
          if (body.creator_id) {
            const creator = await findUser(tx, body.creator_id, scope);
            if (!creator || creator.organizationId !== organization.id) {
              throw new NotFoundError(
                "user_not_found",
                `creator_id: no user ${body.creator_id} in the organization`,
                [
                  {
                    field: "creator_id",
                    code: "not_found",
                    message: "no such user in the organization",
                  },
                ],
              );
            }
          }
          return insertCollectible(tx, {
            organizationId: organization.id,
            creatorId: body.creator_id ?? null,
            name: body.name,
            description: body.description ?? null,
            mimeType: body.mime_type ?? null,
            artwork: body.artwork ?? null,
            cover,
            externalId: body.external_id ?? null,
            totalCount: body.total_count,
          });
        });
      } catch (error) {
        throw asConflict(error);
      }
      chain.poke();
      const status = await chain.confirmations.waitFor(
        "collectible",
        row.id,
        deps.config.CONFIRM_TIMEOUT_MS,
      );
      const current =
        status === "pending" ? row : ((await findCollectible(db, row.id, scope)) ?? row);
      const counts = await claimedCountsOf(deps, [current]);
      res.status(current.status === "pending" ? 202 : 201).location(`/collectibles/${row.id}`);
      res.json({
        data: toCollectible(current, counts, deps, baseUrlOf(req, deps.config.PUBLIC_URL)),
      });
    },
  );

  return router;
}

// ---------------------------------------------------------------------------------------------
// OpenAPI

export function registerCollectiblesOpenApi(registry: OpenAPIRegistry): void {
  const security: Record<string, string[]>[] = [{ basicAuth: [] }, { bearerAuth: [] }];
  const Envelope = dataEnvelope(Collectible);
  registry.registerPath({
    method: "get",
    path: "/collectibles",
    tags: ["Collectibles"],
    summary: "List collectibles visible to the key",
    security,
    request: { query: ListCollectiblesQuery },
    responses: {
      200: {
        description: "A page of collectibles, oldest first",
        content: { "application/json": { schema: listEnvelope(Collectible) } },
      },
      ...errorResponses(400, 401, 429),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/collectibles",
    tags: ["Collectibles"],
    summary: "Create a collectible on-chain",
    description:
      "Stored at once, then created on-chain by the relayer. Answers 201 once mined and " +
      "indexed, or 202 with the pending object after CONFIRM_TIMEOUT_MS (GET shows it turn " +
      "final). Send `Idempotency-Key` to make retries safe.",
    security,
    request: {
      headers: IdempotencyHeaders,
      body: { required: true, content: { "application/json": { schema: CreateCollectibleBody } } },
    },
    responses: {
      201: {
        description: "Created and confirmed",
        content: { "application/json": { schema: Envelope } },
      },
      202: {
        description: "Accepted, still pending",
        content: { "application/json": { schema: Envelope } },
      },
      ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429, 503),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/collectibles/{id}",
    tags: ["Collectibles"],
    summary: "Get a collectible",
    security,
    request: { params: IdParams },
    responses: {
      200: { description: "Found", content: { "application/json": { schema: Envelope } } },
      ...errorResponses(400, 401, 404, 429),
    },
  });
}
