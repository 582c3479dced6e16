/**
 * What the services answer: a row as it is shown, with what the chain or the counters say of it.
 * Presenters (presenters/) turn a view into the JSON the API answers.
 */
import type { ClaimRow } from "../db/claims.ts";
import type { CollectibleRow } from "../db/collectibles.ts";
import type { Presentable } from "../db/driver/pageStatements.ts";
import type { OrganizationRow } from "../db/organizations.ts";
import type { UserRow } from "../db/users.ts";

export interface ClaimView {
  row: Presentable<ClaimRow>;
  /** Who holds the token now (follows transfers); the minted-to address until indexed. */
  holderAddress: string;
  /** The organization's user holding it now, or null for an outside address. */
  holderId: string | null;
  /** Edition number from the chain; null until indexed. */
  edition: number | null;
  transactionHash: string | null;
}

export interface CollectibleView {
  row: Presentable<CollectibleRow>;
  /** Tokens minted so far (the indexer's count, or the API's records when it is down). */
  claimedCount: number;
  /** Claims accepted and not yet confirmed. */
  pendingCount: number;
}

/** A user with its count of confirmed claims. */
export interface UserView {
  row: Presentable<UserRow>;
  claimedCount: number;
}

export interface OrganizationView {
  row: Presentable<OrganizationRow>;
}
