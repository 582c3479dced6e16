/**
 * One claim stored as an intent: the holder found (or created, by email), the one-per-person and
 * supply decisions, and the row the relayer will mint. POST /claims/batch stores claims this way,
 * and so does POST /claims for a request its group's statement does not place (claimGroups.ts).
 */
import {
  type ClaimWithOrganization,
  hasClaimed,
  insertClaimWithinSupply,
  type NewClaim,
} from "../../db/claims.ts";
import { findCollectible } from "../../db/collectibles.ts";
import type { Transaction } from "../../db/driver/client.ts";
import { sendingClaimsToLinkedWallets } from "../../db/organizations.ts";
import { findOrCreateUserByEmail, findUser, type UserRow } from "../../db/users.ts";
import type { RouteDeps } from "../../deps.ts";
import type { Scope } from "../../domain/auth.ts";
import { alreadyClaimed, collectibleFailed, notFound, soldOut } from "../../errorCatalogue.ts";
import type { CreateClaimBody } from "../../schemas/claims.ts";
import type { z } from "../../schemas/zod.ts";

type ClaimInput = z.output<typeof CreateClaimBody>;

/** The supply and one-per-holder decisions, and the stored intent, in one transaction. */
export async function storeClaim(
  deps: RouteDeps,
  tx: Transaction,
  scope: Scope,
  body: ClaimInput,
): Promise<ClaimWithOrganization> {
  const collectible = await findCollectible(tx, body.collectible_id, scope);
  if (!collectible) throw notFound("collectible", body.collectible_id, "collectible_id");
  if (collectible.status === "failed") throw collectibleFailed();
  const organizationId = collectible.organizationId;
  const holder =
    body.holder_id !== undefined
      ? await findUser(tx, body.holder_id, scope)
      : await findOrCreateUserByEmail(tx, organizationId, body.email as string, (index) =>
          deps.wallets.addressAt(index),
        );
  if (!holder || holder.organizationId !== organizationId) {
    const scopeText = "in the collectible's organization";
    throw notFound("user", body.holder_id ?? "", "holder_id", scopeText);
  }
  // A cheap answer first; the supply update below is the atomic decision. A holder who claimed
  // before hears that rather than "sold out".
  if (collectible.reservedCount >= collectible.totalCount) {
    throw (await hasClaimed(tx, collectible.id, holder))
      ? alreadyClaimed()
      : soldOut(collectible.totalCount);
  }
  // A holder's second claim fails here on the unique index (409 already_claimed).
  const toLinked =
    holder.linkedWallet !== null &&
    (await sendingClaimsToLinkedWallets(tx, [organizationId])).has(organizationId);
  const claim = await insertClaimWithinSupply(tx, newClaim(collectible.id, holder, body, toLinked));
  if (!claim) throw soldOut(collectible.totalCount);
  return { claim, organizationId };
}

/**
 * The claim as stored: minted to the holder's address as it is now (their linked wallet when
 * `toLinked`: the organization's `claims_to_linked_wallet`), and counted against the holder's
 * email (one claim per person, also through a user created again).
 */
function newClaim(
  collectibleId: string,
  holder: UserRow,
  body: ClaimInput,
  toLinked = false,
): NewClaim {
  return {
    collectibleId,
    holderId: holder.id,
    mintedTo: (toLinked && holder.linkedWallet) || holder.walletAddress,
    holderEmail: holder.email,
    externalId: body.external_id ?? null,
  };
}
