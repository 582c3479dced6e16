/**
 * /organizations: the business's customers, nested through parent_id.
 *
 * - A key scoped to an organization sees that organization and its descendants; everything else
 *   answers 404 and stays out of lists. It can only create or move organizations inside its scope.
 * - parent_id must name a visible, active organization and may never make a cycle (422).
 * - external_id is unique among the active children of one parent (409 otherwise).
 * - wallet_address is always derived by the service; it is not an input.
 * - DELETE deactivates (is_active=false); an organization with active sub-organizations or users
 *   cannot be deleted (409). A deleted organization answers 404 and leaves lists.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { type Request, Router } from "express";
import {
  deactivateOrganization,
  findOrganization,
  insertOrganization,
  isSelfOrAncestor,
  listOrganizations,
  lockOrganizationTree,
  type NewOrganization,
  nextWalletIndex,
  type OrganizationRow,
  organizationContents,
  type Scope,
  updateOrganization,
} from "../db/organizations.ts";
import { paginationOf } from "../db/pagination.ts";
import type { StoredImage } from "../db/schema.ts";
import type { AppDeps, RouteDeps } from "../deps.ts";
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from "../errors.ts";
import { decodeDataUri } from "../images/decodeDataUri.ts";
import { deleteImage, imageUrls, storeImage } from "../images/storeImage.ts";
import { authOf } from "../middleware/auth.ts";
import { jsonBody, multipartBody, requireContentType } from "../middleware/bodyParsers.ts";
import { idempotency } from "../middleware/idempotency.ts";
import { parseInput, rejectFields } from "../middleware/validate.ts";
import { z } from "../openapi/zod.ts";
import { asConflict } from "./conflicts.ts";
import {
  BlockchainId,
  baseUrlOf,
  DeletedResponse,
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
// Schemas (validation, types and the OpenAPI document)

export const Organization = z
  .strictObject({
    id: Uuid,
    name: z.string(),
    description: z.string().nullable(),
    parent_id: Uuid.nullable(),
    external_id: z.string().nullable(),
    wallet_address: WalletAddress,
    blockchain_id: BlockchainId,
    // A union rather than .nullable(): zod-to-openapi 9 drops the null of a nullable $ref.
    logo: z.union([ImageUrls, z.null()]),
    cover: z.union([ImageUrls, z.null()]),
    is_active: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Organization");

const Name = z.string().trim().min(1, "must not be empty").max(200);
const Description = z.string().max(5000);
const ExternalId = z.string().trim().min(1, "must not be empty").max(200);

export const CreateOrganizationBody = z
  .strictObject({
    name: Name,
    description: Description.nullish(),
    parent_id: Uuid.nullish().openapi({
      description: "Required for a key scoped to an organization",
    }),
    external_id: ExternalId.nullish().openapi({
      description: "Your identifier; unique among the active children of one parent",
    }),
    logo: ImageInput.nullish(),
    cover: ImageInput.nullish(),
  })
  .openapi("CreateOrganization");

export const UpdateOrganizationBody = z
  .strictObject({
    name: Name.optional(),
    description: Description.nullish(),
    parent_id: Uuid.nullish().openapi({ description: "null moves it to the top level" }),
    external_id: ExternalId.nullish(),
    logo: ImageInput.nullish().openapi({ description: "null removes the image" }),
    cover: ImageInput.nullish().openapi({ description: "null removes the image" }),
  })
  .openapi("UpdateOrganization");

export const ListOrganizationsQuery = z.strictObject({
  ...PageQuery,
  parent_id: filterParam("parent_id", Uuid, "Only direct children of this organization"),
  external_id: filterParam("external_id", z.string().min(1), "Exact external_id"),
  wallet_address: filterParam("wallet_address", WalletAddress, "Exact wallet address"),
});

const NOT_WRITABLE = {
  wallet_address: "is assigned by the service and cannot be set",
  blockchain_id: "is set by the service",
  is_active: "cannot be set; DELETE deactivates",
};

const IMAGE_FIELDS = ["logo", "cover"] as const;
type ImageField = (typeof IMAGE_FIELDS)[number];

// ---------------------------------------------------------------------------------------------
// Serialization

export interface ResponseContext {
  deps: AppDeps;
  baseUrl: string;
}

export function blockchainIdOf(chainId: number): string {
  return `0x${chainId.toString(16)}`;
}

export function toOrganization(row: OrganizationRow, { deps, baseUrl }: ResponseContext) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    parent_id: row.parentId,
    external_id: row.externalId,
    wallet_address: row.walletAddress,
    blockchain_id: blockchainIdOf(deps.config.CHAIN_ID),
    logo: imageUrls(deps.storage, row.logo, baseUrl),
    cover: imageUrls(deps.storage, row.cover, baseUrl),
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  } satisfies z.input<typeof Organization>;
}

// ---------------------------------------------------------------------------------------------
// Routes

function organizationNotFound(id: string) {
  return new NotFoundError("organization_not_found", `No organization ${id}`);
}

function parentNotFound(id: string) {
  return new NotFoundError("parent_not_found", `parent_id: no organization ${id}`, [
    { field: "parent_id", code: "not_found", message: "no such organization" },
  ]);
}

function parentRequired() {
  return new UnprocessableError(
    "parent_required",
    "parent_id: a key scoped to an organization can only place organizations inside its scope",
    [{ field: "parent_id", code: "parent_required", message: "required for a scoped key" }],
  );
}

/** Multipart text fields arrive in a null-prototype object; JSON as parsed. */
function bodyOf(req: Request): unknown {
  const body: unknown = req.body;
  return body && typeof body === "object" && Object.getPrototypeOf(body) === null
    ? { ...body }
    : body;
}

function uploadedFile(req: Request, field: ImageField): Buffer | undefined {
  const files = req.files as Record<string, Express.Multer.File[] | undefined> | undefined;
  return files?.[field]?.[0]?.buffer;
}

/**
 * The new value of each image field: stored keys, null (remove), or undefined (unchanged).
 * Images are processed before the transaction and deleted again if it fails.
 */
async function imagesOf(
  req: Request,
  body: Partial<Record<ImageField, string | null | undefined>>,
  deps: AppDeps,
): Promise<Partial<Record<ImageField, StoredImage | null>>> {
  const result: Partial<Record<ImageField, StoredImage | null>> = {};
  try {
    for (const field of IMAGE_FIELDS) {
      const file = uploadedFile(req, field);
      const text = body[field];
      if (file && text !== undefined) {
        throw new ValidationError(`${field}: sent both as a file and as a field`, [
          { field, code: "duplicate_image", message: "send the image once" },
        ]);
      }
      const max = deps.config.MAX_IMAGE_BYTES;
      if (file) result[field] = await storeImage(deps.storage, file, field, max);
      else if (text === null) result[field] = null;
      else if (text !== undefined) {
        result[field] = await storeImage(deps.storage, decodeDataUri(text, field, max), field, max);
      }
    }
  } catch (error) {
    await discardImages(deps, result);
    throw error;
  }
  return result;
}

async function discardImages(
  deps: AppDeps,
  images: Partial<Record<ImageField, StoredImage | null>>,
): Promise<void> {
  for (const image of Object.values(images)) if (image) await deleteImage(deps.storage, image);
}

/** Inside a transaction: the parent exists, is visible and (for moves) makes no cycle. */
async function checkParent(
  tx: Parameters<typeof findOrganization>[0],
  parentId: string,
  scope: Scope,
  movingId?: string,
): Promise<void> {
  const parent = await findOrganization(tx, parentId, scope, "share");
  if (!parent) throw parentNotFound(parentId);
  if (movingId && (await isSelfOrAncestor(tx, movingId, parentId))) {
    throw new UnprocessableError(
      "parent_cycle",
      "parent_id: the organization would become its own ancestor",
      [{ field: "parent_id", code: "parent_cycle", message: "would make a cycle" }],
    );
  }
}

export function organizationsRouter(deps: RouteDeps): Router {
  const { db } = deps;
  const router = Router();
  // Two images as base64 in JSON, plus room for the other fields.
  const jsonLimit = Math.ceil((deps.config.MAX_IMAGE_BYTES * 4) / 3) * 2 + 64 * 1024;
  const parseBody = [
    requireContentType(["application/json", "multipart/form-data"]),
    jsonBody(jsonLimit),
    multipartBody([...IMAGE_FIELDS], deps.config.MAX_IMAGE_BYTES),
  ];
  const context = (req: Request): ResponseContext => ({
    deps,
    baseUrl: baseUrlOf(req, deps.config.PUBLIC_URL),
  });

  router.get("/", async (req, res) => {
    const scope = authOf(res);
    const query = parseInput(ListOrganizationsQuery, req.query, "query");
    const { rows, count } = await listOrganizations(
      db,
      scope,
      {
        parentId: query.parent_id,
        externalId: query.external_id,
        walletAddress: query.wallet_address,
      },
      query,
      deps.counts,
    );
    const ctx = context(req);
    res.json({
      pagination: paginationOf(query, count),
      data: rows.map((row) => toOrganization(row, ctx)),
    });
  });

  router.get("/:id", async (req, res) => {
    const { id } = parseInput(IdParams, req.params, "path");
    const row = await findOrganization(db, id, authOf(res));
    if (!row) throw organizationNotFound(id);
    res.json({ data: toOrganization(row, context(req)) });
  });

  router.post("/", ...parseBody, idempotency(deps), async (req, res) => {
    const scope = authOf(res);
    const raw = bodyOf(req);
    rejectFields(raw, NOT_WRITABLE);
    const body = parseInput(CreateOrganizationBody, raw, "body");
    const parentId = body.parent_id ?? null;
    if (scope.organizationId && !parentId) throw parentRequired();
    // Fail fast before spending time on images; checked again under lock below.
    if (parentId && !(await findOrganization(db, parentId, scope))) throw parentNotFound(parentId);

    const images = await imagesOf(req, body, deps);
    let row: OrganizationRow;
    try {
      row = await db.transaction(async (tx) => {
        if (parentId) await checkParent(tx, parentId, scope);
        const walletIndex = await nextWalletIndex(tx);
        return insertOrganization(tx, {
          name: body.name,
          description: body.description ?? null,
          parentId,
          externalId: body.external_id ?? null,
          walletIndex,
          walletAddress: deps.wallets.addressAt(walletIndex),
          logo: images.logo ?? null,
          cover: images.cover ?? null,
        });
      });
    } catch (error) {
      await discardImages(deps, images);
      throw asConflict(error);
    }
    res.status(201).location(`/organizations/${row.id}`);
    res.json({ data: toOrganization(row, context(req)) });
  });

  router.patch("/:id", ...parseBody, async (req, res) => {
    const scope = authOf(res);
    const { id } = parseInput(IdParams, req.params, "path");
    const raw = bodyOf(req);
    rejectFields(raw, NOT_WRITABLE);
    const body = parseInput(UpdateOrganizationBody, raw ?? {}, "body");
    if (!(await findOrganization(db, id, scope))) throw organizationNotFound(id);
    if (body.parent_id === null && scope.organizationId) throw parentRequired();

    const images = await imagesOf(req, body, deps);
    let before: OrganizationRow;
    let row: OrganizationRow;
    try {
      [before, row] = await db.transaction(async (tx) => {
        if (body.parent_id !== undefined) await lockOrganizationTree(tx);
        const current = await findOrganization(tx, id, scope, "update");
        if (!current) throw organizationNotFound(id);
        if (body.parent_id) await checkParent(tx, body.parent_id, scope, id);
        const changes: Partial<NewOrganization> = {};
        if (body.name !== undefined) changes.name = body.name;
        if (body.description !== undefined) changes.description = body.description;
        if (body.parent_id !== undefined) changes.parentId = body.parent_id;
        if (body.external_id !== undefined) changes.externalId = body.external_id;
        if (images.logo !== undefined) changes.logo = images.logo;
        if (images.cover !== undefined) changes.cover = images.cover;
        if (Object.keys(changes).length === 0) return [current, current];
        return [current, await updateOrganization(tx, id, changes)];
      });
    } catch (error) {
      await discardImages(deps, images);
      throw asConflict(error);
    }
    // Replaced images are no longer referenced: remove their files.
    for (const field of IMAGE_FIELDS) {
      const old = before[field];
      if (images[field] !== undefined && old) await deleteImage(deps.storage, old);
    }
    res.json({ data: toOrganization(row, context(req)) });
  });

  router.delete("/:id", async (req, res) => {
    const scope = authOf(res);
    const { id } = parseInput(IdParams, req.params, "path");
    await db.transaction(async (tx) => {
      const current = await findOrganization(tx, id, scope, "update");
      if (!current) throw organizationNotFound(id);
      const contents = await organizationContents(tx, id);
      if (contents.organizations > 0 || contents.users > 0) {
        throw new ConflictError(
          "organization_not_empty",
          `Organization ${id} still has ${contents.organizations} active sub-organizations and ` +
            `${contents.users} active users; delete or move them first`,
          [{ message: "not empty", organizations: contents.organizations, users: contents.users }],
        );
      }
      await deactivateOrganization(tx, id);
    });
    res.json({ data: { id, deleted: true } });
  });

  return router;
}

// ---------------------------------------------------------------------------------------------
// OpenAPI

export function registerOrganizationsOpenApi(registry: OpenAPIRegistry): void {
  const security: Record<string, string[]>[] = [{ basicAuth: [] }, { bearerAuth: [] }];
  const OrganizationEnvelope = dataEnvelope(Organization);
  // In multipart/form-data the images are file parts; the other fields are the same.
  const ImageFile = z
    .string()
    .openapi({ format: "binary", description: "PNG, JPEG, WebP or GIF file (no SVG)" });
  const formOf = (schema: typeof CreateOrganizationBody | typeof UpdateOrganizationBody) =>
    z.strictObject({ ...schema.shape, logo: ImageFile.optional(), cover: ImageFile.optional() });
  const bodyContent = (
    schema: typeof CreateOrganizationBody | typeof UpdateOrganizationBody,
    name: string,
  ) => ({
    "application/json": { schema },
    "multipart/form-data": { schema: formOf(schema).openapi(name) },
  });
  registry.registerPath({
    method: "get",
    path: "/organizations",
    tags: ["Organizations"],
    summary: "List organizations visible to the key",
    security,
    request: { query: ListOrganizationsQuery },
    responses: {
      200: {
        description: "A page of organizations, oldest first",
        content: { "application/json": { schema: listEnvelope(Organization) } },
      },
      ...errorResponses(400, 401, 429),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/organizations",
    tags: ["Organizations"],
    summary: "Create an organization (its wallet is derived by the service)",
    security,
    request: {
      headers: IdempotencyHeaders,
      body: {
        required: true,
        content: bodyContent(CreateOrganizationBody, "CreateOrganizationForm"),
      },
    },
    responses: {
      201: {
        description: "Created",
        content: { "application/json": { schema: OrganizationEnvelope } },
      },
      ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/organizations/{id}",
    tags: ["Organizations"],
    summary: "Get an organization",
    security,
    request: { params: IdParams },
    responses: {
      200: {
        description: "Found",
        content: { "application/json": { schema: OrganizationEnvelope } },
      },
      ...errorResponses(400, 401, 404, 429),
    },
  });
  registry.registerPath({
    method: "patch",
    path: "/organizations/{id}",
    tags: ["Organizations"],
    summary: "Change some fields of an organization",
    security,
    request: {
      params: IdParams,
      body: {
        required: true,
        content: bodyContent(UpdateOrganizationBody, "UpdateOrganizationForm"),
      },
    },
    responses: {
      200: {
        description: "Updated",
        content: { "application/json": { schema: OrganizationEnvelope } },
      },
      ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429),
    },
  });
  registry.registerPath({
    method: "delete",
    path: "/organizations/{id}",
    tags: ["Organizations"],
    summary: "Deactivate an organization (it must have no active sub-organizations or users)",
    security,
    request: { params: IdParams },
    responses: {
      200: {
        description: "Deactivated",
        content: { "application/json": { schema: DeletedResponse } },
      },
      ...errorResponses(400, 401, 404, 409, 429),
    },
  });
}
