/**
 * Users: people of an organization who receive collectibles.
 *
 * - organization_id must name a visible, active organization (404); it cannot change.
 * - email is unique per organization among active users, case-insensitively (409); so is
 *   external_id.
 * - wallet_address: a user may bring an EIP-55 address; otherwise the service derives one from a
 *   fresh index. It cannot change afterwards (claims are minted to it). An address is one active
 *   user's in an organization, as wallet_address or linked wallet (409, by the key of
 *   `user_addresses`, which triggers on users keep: db/walletSchema.ts).
 * - claimed_count counts the user's confirmed claims.
 * - DELETE deactivates; the user answers 404 afterwards and its email may be used again.
 */

import { confirmedClaimsPerHolder } from "../db/claims.ts";
import type { Presentable } from "../db/driver/pageStatements.ts";
import { deactivateRecord, insertRecord, updateRecord } from "../db/driver/recordWrites.ts";
import type { IdempotentWrite } from "../db/idempotencyKeys.ts";
import { findOrganization } from "../db/organizations.ts";
import { users } from "../db/schema.ts";
import { findUser, listUsers, type NewUser, type UserRow } from "../db/users.ts";
import { nextWalletIndex } from "../db/walletIndexes.ts";
import type { RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import { notFound } from "../errorCatalogue.ts";
import type { CreateUserBody, UpdateUserBody } from "../schemas/users.ts";
import type { z } from "../schemas/zod.ts";
import { reads, viewOf } from "./reads.ts";
import type { UserView } from "./views.ts";
import { changesOf, inTransaction } from "./writes.ts";

async function withCounts(deps: RouteDeps, rows: Presentable<UserRow>[]): Promise<UserView[]> {
  const ids = rows.map((row) => row.id);
  const counts = await confirmedClaimsPerHolder(deps.db, ids);
  return rows.map((row) => ({ row, claimedCount: counts.get(row.id) ?? 0 }));
}

const userReads = reads("user", { list: listUsers, find: findUser }, withCounts);
export const { list, get } = userReads;

export async function create(
  deps: RouteDeps,
  scope: Scope,
  body: z.output<typeof CreateUserBody>,
  _files?: unknown,
  idempotency?: IdempotentWrite,
): Promise<UserView> {
  const created = { idempotency, idOf: (made: UserRow) => made.id };
  const row = await inTransaction(
    deps,
    async (tx) => {
      // The share lock keeps the organization from being deleted while the user is added.
      const organization = await findOrganization(tx, body.organization_id, scope, "share");
      if (!organization) throw notFound("organization", body.organization_id, "organization_id");
      let walletIndex: number | null = null;
      let walletAddress = body.wallet_address ?? undefined;
      if (!walletAddress) {
        walletIndex = await nextWalletIndex(tx);
        walletAddress = deps.wallets.addressAt(walletIndex);
      }
      return insertRecord(tx, users, {
        organizationId: organization.id,
        email: body.email,
        name: body.name ?? null,
        externalId: body.external_id ?? null,
        walletAddress,
        walletIndex,
      });
    },
    created,
  );
  return { row, claimedCount: 0 };
}

export async function update(
  deps: RouteDeps,
  scope: Scope,
  id: string,
  body: z.output<typeof UpdateUserBody>,
): Promise<UserView> {
  const row = await inTransaction(deps, async (tx) => {
    const current = await findUser(tx, id, scope);
    if (!current) throw notFound("user", id);
    const changes = changesOf<typeof body, NewUser>(body, UPDATABLE);
    if (Object.keys(changes).length === 0) return current;
    return updateRecord(tx, users, id, changes);
  });
  return viewOf(deps, row, withCounts);
}

export async function remove(deps: RouteDeps, scope: Scope, id: string): Promise<void> {
  if (!(await findUser(deps.db, id, scope))) throw notFound("user", id);
  await deactivateRecord(deps.db, users, id);
}

/** What PATCH may change, by body field. */
const UPDATABLE = { email: "email", name: "name", external_id: "externalId" } as const;
