/**
 * Collectibles: numbered editions with a fixed supply, created on-chain by the relayer.
 *
 * - POST stores the collectible (the durable intent) and answers once the chain has it and the
 *   indexer has seen it, or after CONFIRM_TIMEOUT_MS with the pending object.
 * - claimed_count is what the chain has (its confirmed claims: confirmed means indexed);
 *   pending_count the claims accepted and not
 *   yet confirmed; available_count what a new claim can still take (total − confirmed − pending).
 * - creator_id must be an active user of the same organization.
 * - Metadata is immutable on-chain, so there is no update or delete.
 */

import { supplyCounts } from "../db/claims.ts";
import { type CollectibleRow, findCollectible, listCollectibles } from "../db/collectibles.ts";
import type { Presentable } from "../db/driver/pageStatements.ts";
import { insertRecord } from "../db/driver/recordWrites.ts";
import type { IdempotentWrite } from "../db/idempotencyKeys.ts";
import { findOrganization } from "../db/organizations.ts";
import { collectibles } from "../db/schema.ts";
import { findUser } from "../db/users.ts";
import type { AppDeps, RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import { chainNotConfigured, notFound } from "../errorCatalogue.ts";
import type { CreateCollectibleBody } from "../schemas/collectibles.ts";
import type { z } from "../schemas/zod.ts";
import { storeImages, writingImages } from "./images.ts";
import { reads, viewOf } from "./reads.ts";
import type { CollectibleView } from "./views.ts";
import { inTransaction } from "./writes.ts";

const collectibleReads = reads(
  "collectible",
  { list: listCollectibles, find: findCollectible },
  withClaimCounts,
);
export const { list, get } = collectibleReads;

/** Stores the collectible, wakes the relayer, and waits (bounded) for it to become final. */
export async function create(
  deps: RouteDeps,
  scope: Scope,
  body: z.output<typeof CreateCollectibleBody>,
  files: Partial<Record<string, Buffer>>,
  idempotency?: IdempotentWrite,
): Promise<CollectibleView> {
  const chain = deps.chain;
  if (!chain) throw chainNotConfigured();
  const { cover = null } = await storeImages(deps, ["cover"], body, files);
  const created = { idempotency, idOf: (made: CollectibleRow) => made.id };
  const row = await writingImages(deps, { cover }, () =>
    inTransaction(
      deps,
      async (tx) => {
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
        return insertRecord(tx, collectibles, {
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
      },
      created,
    ),
  );
  chain.wakeRelayer();
  return settle(deps, scope, row.id);
}

/**
 * A stored collectible once final (waiting at most CONFIRM_TIMEOUT_MS; then as it is, pending).
 * Also the answer to a retry of a create whose first request died after its commit.
 */
export async function settle(deps: RouteDeps, scope: Scope, id: string): Promise<CollectibleView> {
  await deps.chain?.statusWaiter.waitForFinal("collectible", id, deps.config.CONFIRM_TIMEOUT_MS);
  const current = await findCollectible(deps.db, id, scope);
  if (!current) throw notFound("collectible", id);
  return viewOf(deps, current, withClaimCounts);
}

/**
 * Each collectible's claimed count (its confirmed claims: what the chain has) and pending count
 * (accepted, not yet confirmed), with its reserved places read at the same instant, so that
 * claimed, pending and available add up to the supply (failed claims give their places back,
 * also those of a collectible the chain refused).
 */
async function withClaimCounts(
  deps: AppDeps,
  rows: Presentable<CollectibleRow>[],
): Promise<CollectibleView[]> {
  const supply = await supplyCounts(
    deps.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const counts = supply.get(row.id);
    return {
      row: counts ? { ...row, reservedCount: counts.reserved } : row,
      claimedCount: counts?.confirmed ?? 0,
      pendingCount: counts?.pending ?? 0,
    };
  });
}
