/**
 * /users: people of an organization who receive collectibles.
 *
 * - organization_id must name a visible, active organization (404 otherwise); it cannot change.
 * - email is unique per organization among active users, compared case-insensitively (409).
 * - external_id is unique per organization among active users (409).
 * - wallet_address: a user may bring an EIP-55 checksummed address; otherwise the service derives
 *   one. It cannot change afterwards (claims are minted to it).
 * - claimed_count counts the user's confirmed claims (tokens minted to them on-chain).
 * - DELETE deactivates; the user answers 404 afterwards and its email may be used again.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { type Request, Router } from "express";
import { getAddress } from "viem";
import { confirmedClaimsByHolder } from "../db/claims.ts";
import { findOrganization, nextWalletIndex } from "../db/organizations.ts";
import { paginationOf } from "../db/pagination.ts";
import {
  deactivateUser,
  findUser,
  insertUser,
  listUsers,
  type NewUser,
  type UserRow,
  updateUser,
} from "../db/users.ts";
import type { AppDeps, RouteDeps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import { authOf } from "../middleware/auth.ts";
import { jsonBody, requireContentType } from "../middleware/bodyParsers.ts";
import { idempotency } from "../middleware/idempotency.ts";
import { parseInput, rejectFields } from "../middleware/validate.ts";
import { z } from "../openapi/zod.ts";
import { asConflict } from "./conflicts.ts";
import { blockchainIdOf } from "./organizations.ts";
import {
  BlockchainId,
  DeletedResponse,
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

export const User = z
  .strictObject({
    id: Uuid,
    organization_id: Uuid,
    email: z.email(),
    name: z.string().nullable(),
    external_id: z.string().nullable(),
    wallet_address: WalletAddress,
    blockchain_id: BlockchainId,
    claimed_count: z.number().int().min(0),
    is_active: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("User");

const Email = z.string().trim().max(320).pipe(z.email("must be a valid email address"));
const Name = z.string().trim().min(1, "must not be empty").max(200);
const ExternalId = z.string().trim().min(1, "must not be empty").max(200);

/** An address in its EIP-55 checksummed form; any other spelling is refused, not corrected. */
export const ChecksummedAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address")
  .refine((value) => {
    try {
      return getAddress(value) === value;
    } catch {
      return false;
    }
  }, "must be EIP-55 checksummed")
  .openapi({ example: "0x5B38Da6a701c568545dCfcB03FcB875f56beddC4" });

export const CreateUserBody = z
  .strictObject({
    organization_id: Uuid,
    email: Email,
    name: Name.nullish(),
    external_id: ExternalId.nullish().openapi({
      description: "Your identifier; unique among the organization's active users",
    }),
    wallet_address: ChecksummedAddress.nullish().openapi({
      description: "The user's own address; omitted: the service derives one",
    }),
  })
  .openapi("CreateUser");

export const UpdateUserBody = z
  .strictObject({
    email: Email.optional(),
    name: Name.nullish(),
    external_id: ExternalId.nullish(),
  })
  .openapi("UpdateUser");

export const ListUsersQuery = z.strictObject({
  ...PageQuery,
  organization_id: filterParam("organization_id", Uuid, "Users of this organization"),
  external_id: filterParam("external_id", z.string().min(1), "Exact external_id"),
  email: filterParam("email", z.string().min(1), "Email, case-insensitive"),
  wallet_address: filterParam("wallet_address", WalletAddress, "Exact wallet address"),
});

const NOT_WRITABLE_ON_CREATE = {
  blockchain_id: "is set by the service",
  claimed_count: "is counted from claims",
  is_active: "cannot be set; DELETE deactivates",
};

const NOT_WRITABLE_ON_UPDATE = {
  ...NOT_WRITABLE_ON_CREATE,
  organization_id: "cannot be changed after creation",
  wallet_address: "cannot be changed after creation",
};

// ---------------------------------------------------------------------------------------------
// Serialization

/** Confirmed claims made by each of these users. */
function claimedCounts(deps: AppDeps, rows: UserRow[]): Promise<Map<string, number>> {
  return confirmedClaimsByHolder(
    deps.db,
    rows.map((row) => row.id),
  );
}

export function toUser(row: UserRow, deps: AppDeps, counts?: Map<string, number>) {
  return {
    id: row.id,
    organization_id: row.organizationId,
    email: row.email,
    name: row.name,
    external_id: row.externalId,
    wallet_address: row.walletAddress,
    blockchain_id: blockchainIdOf(deps.config.CHAIN_ID),
    claimed_count: counts?.get(row.id) ?? 0,
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  } satisfies z.input<typeof User>;
}

// ---------------------------------------------------------------------------------------------
// Routes

function userNotFound(id: string) {
  return new NotFoundError("user_not_found", `No user ${id}`);
}

function organizationNotFound(id: string) {
  return new NotFoundError("organization_not_found", `organization_id: no organization ${id}`, [
    { field: "organization_id", code: "not_found", message: "no such organization" },
  ]);
}

function bodyOf(req: Request): unknown {
  return req.body;
}

export function usersRouter(deps: RouteDeps): Router {
  const { db } = deps;
  const router = Router();
  const parseBody = [
    requireContentType(["application/json"]),
    jsonBody(deps.config.MAX_JSON_BYTES),
  ];

  router.get("/", async (req, res) => {
    const query = parseInput(ListUsersQuery, req.query, "query");
    const { rows, count } = await listUsers(
      db,
      authOf(res),
      {
        organizationId: query.organization_id,
        externalId: query.external_id,
        email: query.email,
        walletAddress: query.wallet_address,
      },
      query,
      deps.counts,
    );
    const counts = await claimedCounts(deps, rows);
    res.json({
      pagination: paginationOf(query, count),
      data: rows.map((row) => toUser(row, deps, counts)),
    });
  });

  router.get("/:id", async (req, res) => {
    const { id } = parseInput(IdParams, req.params, "path");
    const row = await findUser(db, id, authOf(res));
    if (!row) throw userNotFound(id);
    res.json({ data: toUser(row, deps, await claimedCounts(deps, [row])) });
  });

  router.post("/", ...parseBody, idempotency(deps), async (req, res) => {
    const scope = authOf(res);
    const raw = bodyOf(req);
    rejectFields(raw, NOT_WRITABLE_ON_CREATE);
    const body = parseInput(CreateUserBody, raw, "body");
    let row: UserRow;
    try {
      row = await db.transaction(async (tx) => {
        // The share lock keeps the organization from being deleted while the user is added.
        const organization = await findOrganization(tx, body.organization_id, scope, "share");
        if (!organization) throw organizationNotFound(body.organization_id);
        let walletIndex: number | null = null;
        let walletAddress = body.wallet_address ?? undefined;
        if (!walletAddress) {
          walletIndex = await nextWalletIndex(tx);
          walletAddress = deps.wallets.addressAt(walletIndex);
        }
        return insertUser(tx, {
          organizationId: organization.id,
          email: body.email,
          name: body.name ?? null,
          externalId: body.external_id ?? null,
          walletAddress,
          walletIndex,
        });
      });
    } catch (error) {
      throw asConflict(error);
    }
    res.status(201).location(`/users/${row.id}`);
    res.json({ data: toUser(row, deps) });
  });

  router.patch("/:id", ...parseBody, async (req, res) => {
    const scope = authOf(res);
    const { id } = parseInput(IdParams, req.params, "path");
    const raw = bodyOf(req);
    rejectFields(raw, NOT_WRITABLE_ON_UPDATE);
    const body = parseInput(UpdateUserBody, raw ?? {}, "body");
    let row: UserRow;
    try {
      row = await db.transaction(async (tx) => {
        const current = await findUser(tx, id, scope);
        if (!current) throw userNotFound(id);
        const changes: Partial<NewUser> = {};
        if (body.email !== undefined) changes.email = body.email;
        if (body.name !== undefined) changes.name = body.name;
        if (body.external_id !== undefined) changes.externalId = body.external_id;
        if (Object.keys(changes).length === 0) return current;
        return updateUser(tx, id, changes);
      });
    } catch (error) {
      throw asConflict(error);
    }
    res.json({ data: toUser(row, deps, await claimedCounts(deps, [row])) });
  });

  router.delete("/:id", async (req, res) => {
    const { id } = parseInput(IdParams, req.params, "path");
    const row = await findUser(db, id, authOf(res));
    if (!row) throw userNotFound(id);
    await deactivateUser(db, id);
    res.json({ data: { id, deleted: true } });
  });

  return router;
}

// ---------------------------------------------------------------------------------------------
// OpenAPI

export function registerUsersOpenApi(registry: OpenAPIRegistry): void {
  const security: Record<string, string[]>[] = [{ basicAuth: [] }, { bearerAuth: [] }];
  const UserEnvelope = dataEnvelope(User);
  registry.registerPath({
    method: "get",
    path: "/users",
    tags: ["Users"],
    summary: "List users visible to the key",
    security,
    request: { query: ListUsersQuery },
    responses: {
      200: {
        description: "A page of users, oldest first",
        content: { "application/json": { schema: listEnvelope(User) } },
      },
      ...errorResponses(400, 401, 429),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/users",
    tags: ["Users"],
    summary: "Create a user (with their own wallet address, or one derived by the service)",
    security,
    request: {
      headers: IdempotencyHeaders,
      body: { required: true, content: { "application/json": { schema: CreateUserBody } } },
    },
    responses: {
      201: { description: "Created", content: { "application/json": { schema: UserEnvelope } } },
      ...errorResponses(400, 401, 404, 409, 413, 415, 429),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/users/{id}",
    tags: ["Users"],
    summary: "Get a user",
    security,
    request: { params: IdParams },
    responses: {
      200: { description: "Found", content: { "application/json": { schema: UserEnvelope } } },
      ...errorResponses(400, 401, 404, 429),
    },
  });
  registry.registerPath({
    method: "patch",
    path: "/users/{id}",
    tags: ["Users"],
    summary: "Change a user's email, name or external_id",
    security,
    request: {
      params: IdParams,
      body: { required: true, content: { "application/json": { schema: UpdateUserBody } } },
    },
    responses: {
      200: { description: "Updated", content: { "application/json": { schema: UserEnvelope } } },
      ...errorResponses(400, 401, 404, 409, 413, 415, 429),
    },
  });
  registry.registerPath({
    method: "delete",
    path: "/users/{id}",
    tags: ["Users"],
    summary: "Deactivate a user",
    security,
    request: { params: IdParams },
    responses: {
      200: {
        description: "Deactivated",
        content: { "application/json": { schema: DeletedResponse } },
      },
      ...errorResponses(400, 401, 404, 429),
    },
  });
}
