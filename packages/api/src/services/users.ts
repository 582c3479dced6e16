/**
 * Users: people of an organization who receive collectibles.
 *
 * - organization_id must name a visible, active organization (404); it cannot change.
 * - email is unique per organization among active users, case-insensitively (409); so is
 *   external_id.
 * - wallet_address: a user may bring an EIP-55 address; otherwise the service derives one from a
 *   fresh index. It cannot change afterwards (claims are minted to it).
 * - claimed_count counts the user's confirmed claims.
 * - DELETE deactivates; the user answers 404 afterwards and its email may be used again.
 */
import { confirmedClaimsByHolder } from "../db/claims.ts";
import { findOrganization } from "../db/organizations.ts";
import type { Scope } from "../db/scope.ts";
import {
  deactivateUser,
  findUser,
  insertUser,
  listUsers,
  type NewUser,
  type UserRow,
  updateUser,
} from "../db/users.ts";
import { nextWalletIndex } from "../db/walletIndexes.ts";
import type { RouteDeps } from "../deps.ts";
import { asConflict, notFound } from "../errorCatalogue.ts";
import type { UserView } from "../presenters/user.ts";
import type { CreateUserBody, ListUsersQuery, UpdateUserBody } from "../schemas/users.ts";
import type { z } from "../schemas/zod.ts";

async function withCounts(deps: RouteDeps, rows: UserRow[]): Promise<UserView[]> {
  const counts = await confirmedClaimsByHolder(
    deps.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ row, claimedCount: counts.get(row.id) ?? 0 }));
}

export async function list(deps: RouteDeps, scope: Scope, query: z.output<typeof ListUsersQuery>) {
  const filters = {
    organizationId: query.organization_id,
    externalId: query.external_id,
    email: query.email,
    walletAddress: query.wallet_address,
  };
  const { rows, count } = await listUsers(deps.db, scope, filters, query, deps.counts);
  return { rows: await withCounts(deps, rows), count };
}

export async function get(deps: RouteDeps, scope: Scope, id: string): Promise<UserView> {
  const row = await findUser(deps.db, id, scope);
  if (!row) throw notFound("user", id);
  const [view] = await withCounts(deps, [row]);
  return view as UserView;
}

export async function create(
  deps: RouteDeps,
  scope: Scope,
  body: z.output<typeof CreateUserBody>,
): Promise<UserView> {
  const row = await deps.db
    .transaction(async (tx) => {
      // The share lock keeps the organization from being deleted while the user is added.
      const organization = await findOrganization(tx, body.organization_id, scope, "share");
      if (!organization) throw notFound("organization", body.organization_id, "organization_id");
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
    })
    .catch((error) => Promise.reject(asConflict(error)));
  return { row, claimedCount: 0 };
}

export async function update(
  deps: RouteDeps,
  scope: Scope,
  id: string,
  body: z.output<typeof UpdateUserBody>,
): Promise<UserView> {
  const row = await deps.db
    .transaction(async (tx) => {
      const current = await findUser(tx, id, scope);
      if (!current) throw notFound("user", id);
      const changes: Partial<NewUser> = {};
      if (body.email !== undefined) changes.email = body.email;
      if (body.name !== undefined) changes.name = body.name;
      if (body.external_id !== undefined) changes.externalId = body.external_id;
      if (Object.keys(changes).length === 0) return current;
      return updateUser(tx, id, changes);
    })
    .catch((error) => Promise.reject(asConflict(error)));
  const [view] = await withCounts(deps, [row]);
  return view as UserView;
}

export async function remove(deps: RouteDeps, scope: Scope, id: string): Promise<void> {
  if (!(await findUser(deps.db, id, scope))) throw notFound("user", id);
  await deactivateUser(deps.db, id);
}
