/**
 * /claims: a user receives one token of a collectible, minted on-chain to the user's wallet.
 *
 * - The holder is `holder_id`, or `email`: the user with that email in the collectible's
 *   organization, created (with a derived wallet) when there is none.
 * - A holder claims a collectible at most once (409 `already_claimed`), and never past its total
 *   (409 `sold_out`). Both are decided in the database transaction that stores the claim (the
 *   intent): a unique index on (collectible, holder) and a conditional update of the
 *   collectible's supply counter, which holds the row lock only until the commit. The contract
 *   is the final guard.
 * - POST answers 201 once the claim is minted and indexed, 202 with the pending claim after
 *   CONFIRM_TIMEOUT_MS, 422 `claim_failed` when the chain refused it (e.g. a receiving contract
 *   that rejects ERC-1155 tokens).
 * - `holder_id` / `holder_wallet_address` follow on-chain transfers (from the indexer):
 *   `holder_id` is the organization's user holding the token now, or null for an outside address.
 *   The `holder_id` filter selects claims by the user who claimed.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { tokenIdOf } from "@collectibles/contracts";
import { and, eq, sql } from "drizzle-orm";
import { type Request, Router } from "express";
import { getAddress } from "viem";
import type { IndexedClaim } from "../chain/indexerReader.ts";
import {
  type ClaimRow,
  type ClaimWithOrganization,
  findClaim,
  hasClaimed,
  insertClaimWithinSupply,
  listClaims,
  usersByWallet,
} from "../db/claims.ts";
import type { Transaction } from "../db/client.ts";
import { findCollectible } from "../db/collectibles.ts";
import { nextWalletIndex } from "../db/organizations.ts";
import { paginationOf } from "../db/pagination.ts";
import { users } from "../db/schema.ts";
import { findUser, type UserRow } from "../db/users.ts";
import type { AppDeps, RouteDeps } from "../deps.ts";
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from "../errors.ts";
import { authOf } from "../middleware/auth.ts";
import { jsonBody, requireContentType } from "../middleware/bodyParsers.ts";
import { idempotency } from "../middleware/idempotency.ts";
import { parseInput, rejectFields } from "../middleware/validate.ts";
import { z } from "../openapi/zod.ts";
import {
  ChainStatus,
  chainNotConfigured,
  collectibleNotFound,
  TransactionHash,
} from "./collectibles.ts";
import { asConflict } from "./conflicts.ts";
import { blockchainIdOf } from "./organizations.ts";
import {
  BlockchainId,
  dataEnvelope,
  errorResponses,
  filterParam,
  IdempotencyHeaders,
  IdParams,
  listEnvelope,
  PageQuery,
  Timestamp,
  Uuid,
  WalletAddress,
} from "./shared.ts";

// ---------------------------------------------------------------------------------------------
// Schemas

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
    email: z
      .string()
      .trim()
      .max(320)
      .pipe(z.email("must be a valid email address"))
      .optional()
      .openapi({ description: "The receiving user's email, created in the organization if new" }),
    external_id: z.string().trim().min(1, "must not be empty").max(200).nullish(),
  })
  .openapi("CreateClaim");

export const ListClaimsQuery = z.strictObject({
  ...PageQuery,
  holder_id: filterParam("holder_id", Uuid, "Claims made by this user"),
  collectible_id: filterParam("collectible_id", Uuid, "Claims of this collectible"),
  external_id: filterParam("external_id", z.string().min(1), "Exact external_id"),
});

const NOT_WRITABLE = {
  id: "is set by the service",
  token_id: "is set by the service",
  status: "is set by the service",
  transaction_hash: "is set by the service",
  wallet_address: "is the holder's; give holder_id or email",
  is_active: "is set by the service",
};

// ---------------------------------------------------------------------------------------------
// Serialization

interface ChainView {
  indexed: Map<string, IndexedClaim>;
  /** `orgId:lowercase address` -> user id, for holders after a transfer. */
  usersByAddress: Map<string, string>;
}

async function chainViewOf(deps: AppDeps, rows: ClaimWithOrganization[]): Promise<ChainView> {
  const view: ChainView = { indexed: new Map(), usersByAddress: new Map() };
  const minted = rows.filter((r) => r.claim.status === "confirmed").map((r) => r.claim.id);
  const indexer = deps.chain?.indexer;
  if (minted.length === 0 || !indexer) return view;
  try {
    view.indexed = await indexer.claimsByIds(minted);
  } catch (error) {
    deps.logger.warn({ err: (error as Error).message }, "indexer unavailable; holders as minted");
    return view;
  }
  const moved = rows.filter((r) => {
    const chain = view.indexed.get(r.claim.id);
    return chain && chain.holder.toLowerCase() !== r.claim.mintedTo.toLowerCase();
  });
  if (moved.length > 0) {
    const holders = await usersByWallet(
      deps.db,
      [...new Set(moved.map((r) => r.organizationId))],
      moved.map((r) => view.indexed.get(r.claim.id)?.holder ?? ""),
    );
    for (const user of holders) {
      view.usersByAddress.set(
        `${user.organizationId}:${user.walletAddress.toLowerCase()}`,
        user.id,
      );
    }
  }
  return view;
}

export function toClaim(row: ClaimWithOrganization, view: ChainView, deps: AppDeps) {
  const { claim } = row;
  const chain = view.indexed.get(claim.id);
  const holder = chain ? getAddress(chain.holder) : claim.mintedTo;
  const holderId =
    holder.toLowerCase() === claim.mintedTo.toLowerCase()
      ? claim.holderId
      : (view.usersByAddress.get(`${row.organizationId}:${holder.toLowerCase()}`) ?? null);
  return {
    id: claim.id,
    collectible_id: claim.collectibleId,
    holder_id: holderId,
    holder_wallet_address: holder,
    claimed_by_id: claim.holderId,
    minted_to: claim.mintedTo,
    external_id: claim.externalId,
    token_id: `0x${tokenIdOf(claim.collectibleId, claim.id).toString(16)}`,
    edition: chain ? Number(chain.edition) : null,
    blockchain_id: blockchainIdOf(deps.config.CHAIN_ID),
    contract_address: deps.chain ? getAddress(deps.chain.client.contract) : null,
    status: claim.status,
    transaction_hash: chain?.transactionHash ?? claim.transactionHash,
    failure_reason: claim.failureReason,
    is_active: claim.status === "confirmed",
    created_at: claim.createdAt.toISOString(),
    updated_at: claim.updatedAt.toISOString(),
  } satisfies z.input<typeof Claim>;
}

// ---------------------------------------------------------------------------------------------
// Routes

function soldOut(total: number) {
  return new ConflictError("sold_out", `The collectible is sold out (all ${total} claimed)`, [
    { field: "collectible_id", code: "sold_out", message: "no edition left" },
  ]);
}

function alreadyClaimed() {
  return new ConflictError("already_claimed", "This holder has already claimed the collectible", [
    { field: "holder_id", code: "already_claimed", message: "claimed before" },
  ]);
}

/**
 * The organization's active user with this email (case-insensitive), created with a derived
 * wallet when there is none. A concurrent creation of the same user is found, not duplicated.
 */
async function findOrCreateUserByEmail(
  tx: Transaction,
  organizationId: string,
  email: string,
  wallets: AppDeps["wallets"],
): Promise<UserRow> {
  const find = async () => {
    const [row] = await tx
      .select()
      .from(users)
      .where(
        and(
          eq(users.organizationId, organizationId),
          eq(users.isActive, true),
          sql`lower(${users.email}) = lower(${email})`,
        ),
      );
    return row;
  };
  const existing = await find();
  if (existing) return existing;
  // Losing the race to another request's insert leaves no error (the transaction stays usable):
  // that request's user is found instead.
  const walletIndex = await nextWalletIndex(tx);
  const [created] = await tx
    .insert(users)
    .values({
      organizationId,
      email,
      walletIndex,
      walletAddress: wallets.addressAt(walletIndex),
    })
    .onConflictDoNothing()
    .returning();
  const user = created ?? (await find());
  if (!user) throw new Error(`no user ${email} after a conflicting insert`);
  return user;
}

function claimNotFound(id: string) {
  return new NotFoundError("claim_not_found", `No claim ${id}`);
}

function bodyOf(req: Request): unknown {
  return req.body;
}

export function claimsRouter(deps: RouteDeps): Router {
  const { db } = deps;
  const router = Router();

  router.get("/", async (req, res) => {
    const query = parseInput(ListClaimsQuery, req.query, "query");
    const { rows, count } = await listClaims(
      db,
      authOf(res),
      {
        holderId: query.holder_id,
        collectibleId: query.collectible_id,
        externalId: query.external_id,
      },
      query,
      deps.counts,
    );
    const view = await chainViewOf(deps, rows);
    res.json({
      pagination: paginationOf(query, count),
      data: rows.map((row) => toClaim(row, view, deps)),
    });
  });

  router.get("/:id", async (req, res) => {
    const { id } = parseInput(IdParams, req.params, "path");
    const row = await findClaim(db, id, authOf(res));
    if (!row) throw claimNotFound(id);
    res.json({ data: toClaim(row, await chainViewOf(deps, [row]), deps) });
  });

  router.post(
    "/",
    requireContentType(["application/json"]),
    jsonBody(deps.config.MAX_JSON_BYTES),
    idempotency(deps),
    async (req, res) => {
      const scope = authOf(res);
      const raw = bodyOf(req);
      rejectFields(raw, NOT_WRITABLE);
      const body = parseInput(CreateClaimBody, raw, "body");
      if ((body.holder_id === undefined) === (body.email === undefined)) {
        const message = "give exactly one of holder_id and email";
        throw new ValidationError(`Invalid request body: holder_id: ${message}`, [
          { field: "holder_id", code: "holder_required", message },
        ]);
      }
      const chain = deps.chain;
      if (!chain) throw chainNotConfigured();
      let claim: ClaimRow;
      let organizationId: string;
      try {
        ({ claim, organizationId } = await deps.claimTransactions.run(() =>
          db.transaction(async (tx) => {
            const collectible = await findCollectible(tx, body.collectible_id, scope);
            if (!collectible) throw collectibleNotFound(body.collectible_id, "collectible_id");
            if (collectible.status === "failed") {
              throw new UnprocessableError(
                "collectible_failed",
                "collectible_id: the collectible could not be created on-chain",
                [
                  {
                    field: "collectible_id",
                    code: "collectible_failed",
                    message: "creation failed",
                  },
                ],
              );
            }
            const holder =
              body.holder_id !== undefined
                ? await findUser(tx, body.holder_id, scope)
                : await findOrCreateUserByEmail(
                    tx,
                    collectible.organizationId,
                    body.email as string,
                    deps.wallets,
                  );
            if (!holder || holder.organizationId !== collectible.organizationId) {
              throw new NotFoundError(
                "user_not_found",
                `holder_id: no user ${body.holder_id} in the collectible's organization`,
                [
                  {
                    field: "holder_id",
                    code: "not_found",
                    message: "no such user in the organization",
                  },
                ],
              );
            }
            // A cheap answer first; the supply update below is the atomic decision. A holder who
            // claimed before hears that rather than "sold out".
            if (collectible.reservedCount >= collectible.totalCount) {
              throw (await hasClaimed(tx, collectible.id, holder.id))
                ? alreadyClaimed()
                : soldOut(collectible.totalCount);
            }
            // A holder's second claim fails here on the unique index (409 already_claimed).
            const row = await insertClaimWithinSupply(tx, {
              collectibleId: collectible.id,
              holderId: holder.id,
              mintedTo: holder.walletAddress,
              externalId: body.external_id ?? null,
            });
            if (!row) throw soldOut(collectible.totalCount);
            return { claim: row, organizationId: collectible.organizationId };
          }),
        ));
      } catch (error) {
        throw asConflict(error);
      }
      chain.poke();
      const status = await chain.confirmations.waitFor(
        "claim",
        claim.id,
        deps.config.CONFIRM_TIMEOUT_MS,
      );
      const current =
        status === "pending"
          ? { claim, organizationId }
          : ((await findClaim(db, claim.id, scope)) ?? { claim, organizationId });
      if (current.claim.status === "failed") {
        throw new UnprocessableError(
          "claim_failed",
          `The chain refused claim ${claim.id}: ${current.claim.failureReason ?? "reverted"}`,
          [
            {
              field: "holder_id",
              code: "claim_failed",
              message: current.claim.failureReason ?? "reverted",
              claim_id: claim.id,
            },
          ],
        );
      }
      res.status(current.claim.status === "pending" ? 202 : 201).location(`/claims/${claim.id}`);
      res.json({ data: toClaim(current, await chainViewOf(deps, [current]), deps) });
    },
  );

  return router;
}

// ---------------------------------------------------------------------------------------------
// OpenAPI

export function registerClaimsOpenApi(registry: OpenAPIRegistry): void {
  const security: Record<string, string[]>[] = [{ basicAuth: [] }, { bearerAuth: [] }];
  const Envelope = dataEnvelope(Claim);
  registry.registerPath({
    method: "get",
    path: "/claims",
    tags: ["Claims"],
    summary: "List claims visible to the key",
    security,
    request: { query: ListClaimsQuery },
    responses: {
      200: {
        description: "A page of claims, oldest first",
        content: { "application/json": { schema: listEnvelope(Claim) } },
      },
      ...errorResponses(400, 401, 429),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/claims",
    tags: ["Claims"],
    summary: "Claim one token of a collectible for a user",
    description:
      "Decides already-claimed and sold-out at once (409), stores the claim, and the relayer " +
      "mints it (claims arriving together share one batch transaction). Answers 201 once minted " +
      "and indexed, or 202 with the pending claim after CONFIRM_TIMEOUT_MS.",
    security,
    request: {
      headers: IdempotencyHeaders,
      body: { required: true, content: { "application/json": { schema: CreateClaimBody } } },
    },
    responses: {
      201: {
        description: "Minted and confirmed",
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
    path: "/claims/{id}",
    tags: ["Claims"],
    summary: "Get a claim",
    security,
    request: { params: IdParams },
    responses: {
      200: { description: "Found", content: { "application/json": { schema: Envelope } } },
      ...errorResponses(400, 401, 404, 429),
    },
  });
}
