/**
 * Collectibles: numbered editions with a fixed supply, created on-chain by the relayer.
 *
 * - POST stores the collectible (the durable intent) and answers once the chain has it and the
 *   indexer has seen it, or after CONFIRM_TIMEOUT_MS with the pending object.
 * - claimed_count / available_count are derived from the chain (the indexer).
 * - creator_id must be an active user of the same organization.
 * - Metadata is immutable on-chain, so there is no update or delete.
 */
import {
  type CollectibleRow,
  findCollectible,
  insertCollectible,
  listCollectibles,
} from "../db/collectibles.ts";
import { findOrganization } from "../db/organizations.ts";
import type { Scope } from "../db/scope.ts";
import { findUser } from "../db/users.ts";
import type { RouteDeps } from "../deps.ts";
import { asConflict, chainNotConfigured, notFound } from "../errorCatalogue.ts";
import type { CollectibleView } from "../presenters/collectible.ts";
import type { CreateCollectibleBody, ListCollectiblesQuery } from "../schemas/collectibles.ts";
import type { z } from "../schemas/zod.ts";
import { withClaimedCounts } from "./chainFacts.ts";
import { storeImages, writingImages } from "./images.ts";

export async function list(
  deps: RouteDeps,
  scope: Scope,
  query: z.output<typeof ListCollectiblesQuery>,
) {
  const filters = {
    organizationId: query.organization_id,
    creatorId: query.creator_id,
    externalId: query.external_id,
  };
  const { rows, count } = await listCollectibles(deps.db, scope, filters, query, deps.counts);
  return { rows: await withClaimedCounts(deps, rows), count };
}

export async function get(deps: RouteDeps, scope: Scope, id: string): Promise<CollectibleView> {
  const row = await findCollectible(deps.db, id, scope);
  if (!row) throw notFound("collectible", id);
  return viewOf(deps, row);
}

/** Stores the collectible, wakes the relayer, and waits (bounded) for it to become final. */
export async function create(
  deps: RouteDeps,
  scope: Scope,
  body: z.output<typeof CreateCollectibleBody>,
  files: Partial<Record<string, Buffer>>,
): Promise<CollectibleView> {
  const chain = deps.chain;
  if (!chain) throw chainNotConfigured();
  const { cover = null } = await storeImages(deps, ["cover"], body, files);
  const row = await writingImages(deps, { cover }, () =>
    deps.db
      .transaction(async (tx) => {
        const organization = await findOrganization(tx, body.organization_id, scope, "share");
        if (!organization) {
          throw notFound("organization", body.organization_id, "organization_id");
        }
        if (body.creator_id) {
          const creator = await findUser(tx, body.creator_id, scope);
          if (!creator || creator.organizationId !== organization.id) {
            throw notFound("user", body.creator_id, "creator_id", "in the organization");
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
      })
      .catch((error) => Promise.reject(asConflict(error))),
  );
  chain.wakeRelayer();
  const timeout = deps.config.CONFIRM_TIMEOUT_MS;
  const status = await chain.statusWaiter.waitForFinal("collectible", row.id, timeout);
  const current =
    status === "pending" ? row : ((await findCollectible(deps.db, row.id, scope)) ?? row);
  return viewOf(deps, current);
}

async function viewOf(deps: RouteDeps, row: CollectibleRow): Promise<CollectibleView> {
  const [view] = await withClaimedCounts(deps, [row]);
  return view as CollectibleView;
}
