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

import type { Transaction } from "../db/driver/client.ts";
import type { Presentable } from "../db/driver/pageStatements.ts";
import { deactivateRecord, insertRecord, updateRecord } from "../db/driver/recordWrites.ts";
import type { IdempotentWrite } from "../db/idempotencyKeys.ts";
import {
  findOrganization,
  isSelfOrAncestor,
  listOrganizations,
  lockOrganizationTree,
  type NewOrganization,
  type OrganizationRow,
  organizationContents,
} from "../db/organizations.ts";
import { organizations } from "../db/schema.ts";
import { nextWalletIndex } from "../db/walletIndexes.ts";
import type { RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import {
  notFound,
  organizationNotEmpty,
  parentCycle,
  parentNotFound,
  parentRequired,
} from "../errorCatalogue.ts";
import { deleteImage } from "../images/storeImage.ts";
import type { CreateOrganizationBody, UpdateOrganizationBody } from "../schemas/organizations.ts";
import { ORGANIZATION_IMAGE_FIELDS } from "../schemas/organizations.ts";
import type { z } from "../schemas/zod.ts";
import { storeImages, writingImages } from "./images.ts";
import { reads } from "./reads.ts";
import type { OrganizationView } from "./views.ts";
import { changesOf, inTransaction } from "./writes.ts";

type Files = Partial<Record<string, Buffer>>;

const organizationReads = reads(
  "organization",
  { list: listOrganizations, find: findOrganization },
  async (_deps: RouteDeps, rows: Presentable<OrganizationRow>[]) => rows.map((row) => ({ row })),
);
export const { list, get } = organizationReads;

export async function create(
  deps: RouteDeps,
  scope: Scope,
  body: z.output<typeof CreateOrganizationBody>,
  files: Files,
  idempotency?: IdempotentWrite,
): Promise<OrganizationView> {
  const parentId = body.parent_id ?? null;
  if (scope.organizationId && !parentId) throw parentRequired();
  // Fail fast before spending time on images; checked again under lock below.
  if (parentId && !(await findOrganization(deps.db, parentId, scope))) {
    throw parentNotFound(parentId);
  }
  const images = await storeImages(deps, ORGANIZATION_IMAGE_FIELDS, body, files);
  const created = { idempotency, idOf: (made: OrganizationRow) => made.id };
  const row = await writingImages(deps, images, () =>
    inTransaction(
      deps,
      async (tx) => {
        if (parentId) await checkParent(tx, parentId, scope);
        const walletIndex = await nextWalletIndex(tx);
        return insertRecord(tx, organizations, {
          name: body.name,
          description: body.description ?? null,
          parentId,
          externalId: body.external_id ?? null,
          walletIndex,
          walletAddress: deps.wallets.addressAt(walletIndex),
          claimsToLinkedWallet: body.claims_to_linked_wallet ?? false,
          logo: images.logo ?? null,
          cover: images.cover ?? null,
        });
      },
      created,
    ),
  );
  return { row };
}

export async function update(
  deps: RouteDeps,
  scope: Scope,
  id: string,
  body: z.output<typeof UpdateOrganizationBody>,
  files: Files,
): Promise<OrganizationView> {
  if (!(await findOrganization(deps.db, id, scope))) throw notFound("organization", id);
  if (body.parent_id === null && scope.organizationId) throw parentRequired();
  const images = await storeImages(deps, ORGANIZATION_IMAGE_FIELDS, body, files);
  const [before, after] = await writingImages(deps, images, () =>
    inTransaction(deps, async (tx) => {
      if (body.parent_id !== undefined) await lockOrganizationTree(tx);
      const current = await findOrganization(tx, id, scope, "update");
      if (!current) throw notFound("organization", id);
      if (body.parent_id) await checkParent(tx, body.parent_id, scope, id);
      const changes: Partial<NewOrganization> = {
        ...changesOf(body, UPDATABLE),
        ...images,
      };
      const updated =
        Object.keys(changes).length === 0
          ? current
          : await updateRecord(tx, organizations, id, changes);
      return [current, updated] as [OrganizationRow, OrganizationRow];
    }),
  );
  // Replaced images are no longer referenced: remove their files.
  for (const field of ORGANIZATION_IMAGE_FIELDS) {
    const old = before[field];
    if (images[field] !== undefined && old) await deleteImage(deps.storage, old);
  }
  return { row: after };
}

/** What PATCH may change, by body field. */
const UPDATABLE = {
  name: "name",
  description: "description",
  parent_id: "parentId",
  external_id: "externalId",
  claims_to_linked_wallet: "claimsToLinkedWallet",
} as const;

export async function remove(deps: RouteDeps, scope: Scope, id: string): Promise<void> {
  await inTransaction(deps, async (tx) => {
    if (!(await findOrganization(tx, id, scope, "update"))) throw notFound("organization", id);
    const contents = await organizationContents(tx, id);
    if (contents.organizations > 0 || contents.users > 0) {
      throw organizationNotEmpty(id, contents);
    }
    await deactivateRecord(tx, organizations, id);
  });
}

/** Inside a transaction: the parent exists, is visible and (for moves) makes no cycle. */
async function checkParent(tx: Transaction, parentId: string, scope: Scope, movingId?: string) {
  const parent = await findOrganization(tx, parentId, scope, "share");
  if (!parent) throw parentNotFound(parentId);
  if (movingId && (await isSelfOrAncestor(tx, movingId, parentId))) throw parentCycle();
}
