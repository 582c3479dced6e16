/**
 * Organizations: the business's customers, nested through parent_id.
 *
 * - A key scoped to an organization sees that organization and its descendants; it can only
 *   create or move organizations inside its scope (422 `parent_required` otherwise).
 * - parent_id must name a visible, active organization and may never make a cycle (422).
 * - external_id is unique among the active children of one parent (409).
 * - The wallet is always derived by the service from a fresh index.
 * - DELETE deactivates; an organization with active sub-organizations or users cannot be
 *   deleted (409).
 */
import type { Transaction } from "../db/client.ts";
import {
  deactivateOrganization,
  findOrganization,
  insertOrganization,
  isSelfOrAncestor,
  listOrganizations,
  lockOrganizationTree,
  type NewOrganization,
  type OrganizationRow,
  organizationContents,
  updateOrganization,
} from "../db/organizations.ts";
import type { Scope } from "../db/scope.ts";
import { nextWalletIndex } from "../db/walletIndexes.ts";
import type { RouteDeps } from "../deps.ts";
import {
  asConflict,
  notFound,
  organizationNotEmpty,
  parentCycle,
  parentNotFound,
  parentRequired,
} from "../errorCatalogue.ts";
import { deleteImage } from "../images/storeImage.ts";
import type {
  CreateOrganizationBody,
  ListOrganizationsQuery,
  UpdateOrganizationBody,
} from "../schemas/organizations.ts";
import { ORGANIZATION_IMAGE_FIELDS } from "../schemas/organizations.ts";
import type { z } from "../schemas/zod.ts";
import { storeImages, writingImages } from "./images.ts";

type Files = Partial<Record<string, Buffer>>;

export function list(
  deps: RouteDeps,
  scope: Scope,
  query: z.output<typeof ListOrganizationsQuery>,
) {
  const filters = {
    parentId: query.parent_id,
    externalId: query.external_id,
    walletAddress: query.wallet_address,
  };
  return listOrganizations(deps.db, scope, filters, query, deps.counts);
}

export async function get(deps: RouteDeps, scope: Scope, id: string): Promise<OrganizationRow> {
  const row = await findOrganization(deps.db, id, scope);
  if (!row) throw notFound("organization", id);
  return row;
}

export async function create(
  deps: RouteDeps,
  scope: Scope,
  body: z.output<typeof CreateOrganizationBody>,
  files: Files,
): Promise<OrganizationRow> {
  const parentId = body.parent_id ?? null;
  if (scope.organizationId && !parentId) throw parentRequired();
  // Fail fast before spending time on images; checked again under lock below.
  if (parentId && !(await findOrganization(deps.db, parentId, scope))) {
    throw parentNotFound(parentId);
  }
  const images = await storeImages(deps, ORGANIZATION_IMAGE_FIELDS, body, files);
  return writingImages(deps, images, () =>
    deps.db
      .transaction(async (tx) => {
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
      })
      .catch((error) => Promise.reject(asConflict(error))),
  );
}

export async function update(
  deps: RouteDeps,
  scope: Scope,
  id: string,
  body: z.output<typeof UpdateOrganizationBody>,
  files: Files,
): Promise<OrganizationRow> {
  if (!(await findOrganization(deps.db, id, scope))) throw notFound("organization", id);
  if (body.parent_id === null && scope.organizationId) throw parentRequired();
  const images = await storeImages(deps, ORGANIZATION_IMAGE_FIELDS, body, files);
  const [before, after] = await writingImages(deps, images, () =>
    deps.db
      .transaction(async (tx) => {
        if (body.parent_id !== undefined) await lockOrganizationTree(tx);
        const current = await findOrganization(tx, id, scope, "update");
        if (!current) throw notFound("organization", id);
        if (body.parent_id) await checkParent(tx, body.parent_id, scope, id);
        const changes: Partial<NewOrganization> = { ...images };
        if (body.name !== undefined) changes.name = body.name;
        if (body.description !== undefined) changes.description = body.description;
        if (body.parent_id !== undefined) changes.parentId = body.parent_id;
        if (body.external_id !== undefined) changes.externalId = body.external_id;
        const updated =
          Object.keys(changes).length === 0 ? current : await updateOrganization(tx, id, changes);
        return [current, updated] as [OrganizationRow, OrganizationRow];
      })
      .catch((error) => Promise.reject(asConflict(error))),
  );
  // Replaced images are no longer referenced: remove their files.
  for (const field of ORGANIZATION_IMAGE_FIELDS) {
    const old = before[field];
    if (images[field] !== undefined && old) await deleteImage(deps.storage, old);
  }
  return after;
}

export async function remove(deps: RouteDeps, scope: Scope, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await findOrganization(tx, id, scope, "update"))) throw notFound("organization", id);
    const contents = await organizationContents(tx, id);
    if (contents.organizations > 0 || contents.users > 0) {
      throw organizationNotEmpty(id, contents);
    }
    await deactivateOrganization(tx, id);
  });
}

/** Inside a transaction: the parent exists, is visible and (for moves) makes no cycle. */
async function checkParent(tx: Transaction, parentId: string, scope: Scope, movingId?: string) {
  const parent = await findOrganization(tx, parentId, scope, "share");
  if (!parent) throw parentNotFound(parentId);
  if (movingId && (await isSelfOrAncestor(tx, movingId, parentId))) throw parentCycle();
}
