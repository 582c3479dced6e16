/**
 * Each resource as the API answers it (JSON), from the view its service returns, and what every
 * presenter shares: its context (the chain's facts and where image links point, built once per
 * request), and the fields every presenter answers the same way.
 */
import { tokenIdHex } from "@collectibles/contracts";
import { getAddress } from "viem";
import type { MoveWithToken } from "../db/transfersHome.ts";
import type { AppDeps } from "../deps.ts";
import type { ImageStorage } from "../images/imageStorage.ts";
import { imageUrls } from "../images/storeImage.ts";
import type { Claim } from "../schemas/claims.ts";
import type { Collectible } from "../schemas/collectibles.ts";
import type { Organization } from "../schemas/organizations.ts";
import type { User } from "../schemas/users.ts";
import type { TransferHome } from "../schemas/walletLink.ts";
import type { z } from "../schemas/zod.ts";
import type { ClaimView, CollectibleView, OrganizationView, UserView } from "../services/views.ts";

/** What every presenter needs besides the row: the chain's id and contract, image links. */
export interface PresentContext {
  /** `blockchain_id`: the chain id in hex. */
  blockchainId: string;
  /** The Collectibles contract, EIP-55; null when the API runs without a chain. */
  contractAddress: string | null;
  storage: ImageStorage;
  /** Where this API is reached, for image links. */
  baseUrl: string;
}

function blockchainIdOf(chainId: number): string {
  return `0x${chainId.toString(16)}`;
}

export function presentContext(deps: AppDeps, baseUrl: string): PresentContext {
  return {
    blockchainId: blockchainIdOf(deps.config.CHAIN_ID),
    contractAddress: deps.chain ? getAddress(deps.chain.client.contract) : null,
    storage: deps.storage,
    baseUrl,
  };
}

/** `walletAddress` -> `wallet_address`, as a type. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** These row fields, unchanged, under their snake_case names (`parentId` as `parent_id`). */
function snakeCased<Row, K extends keyof Row & string>(
  row: Row,
  keys: readonly K[],
): { [P in K as SnakeCase<P>]: Row[P] } {
  const fields: Record<string, unknown> = {};
  for (const key of keys) fields[snakeCaseOf(key)] = row[key];
  return fields as { [P in K as SnakeCase<P>]: Row[P] };
}

/** Field names are few and presenters run per row: each is converted once. */
const snakeNames = new Map<string, string>();
function snakeCaseOf(key: string): string {
  let name = snakeNames.get(key);
  if (name === undefined) {
    name = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    snakeNames.set(key, name);
  }
  return name;
}

/**
 * `created_at` and `updated_at`: ISO 8601, UTC, milliseconds. A list page reads them as that
 * text already (db/driver/pageStatements.ts); other reads have Dates.
 */
export function timestampsOf(row: { createdAt: Date | string; updatedAt: Date | string }) {
  return { created_at: isoOf(row.createdAt), updated_at: isoOf(row.updatedAt) };
}

const isoOf = (moment: Date | string) =>
  typeof moment === "string" ? moment : moment.toISOString();

/** `block_number`: the block the row's creation or mint is recorded in, or null. */
const blockNumberOf = (row: { minedBlock: bigint | null }) =>
  row.minedBlock === null ? null : Number(row.minedBlock);

/** `finalized_at`: when the row's block became final, or null. */
const finalizedAtOf = (row: { finalizedAt: Date | string | null }) =>
  row.finalizedAt === null ? null : isoOf(row.finalizedAt);

/** A moment that may be absent: ISO 8601, UTC, milliseconds, or null. */
const momentOf = (moment: Date | string | null) => (moment === null ? null : isoOf(moment));

/** A claim, with what the chain says of its token, as the API answers it. */
export function presentClaim(view: ClaimView, ctx: PresentContext): z.input<typeof Claim> {
  const claim = view.row;
  return {
    id: claim.id,
    collectible_id: claim.collectibleId,
    holder_id: view.holderId,
    holder_wallet_address: view.holderAddress,
    claimed_by_id: claim.holderId,
    minted_to: claim.mintedTo,
    external_id: claim.externalId,
    token_id: tokenIdHex(claim.collectibleId, claim.id),
    edition: view.edition,
    blockchain_id: ctx.blockchainId,
    contract_address: ctx.contractAddress,
    status: claim.status,
    transaction_hash: view.transactionHash,
    failure_reason: claim.failureReason,
    is_active: claim.status === "confirmed",
    block_number: blockNumberOf(claim),
    finalized_at: finalizedAtOf(claim),
    ...timestampsOf(claim),
  };
}

export function presentCollectible(
  { row, claimedCount, pendingCount }: CollectibleView,
  ctx: PresentContext,
): z.input<typeof Collectible> {
  return {
    ...snakeCased(row, ["id", "organizationId", "creatorId", "name", "description", "mimeType"]),
    artwork: row.artwork,
    cover: imageUrls(ctx.storage, row.cover, ctx.baseUrl),
    external_id: row.externalId,
    total_count: row.totalCount,
    claimed_count: claimedCount,
    pending_count: pendingCount,
    // What POST /claims would still accept: the supply counter counts every claim accepted and
    // not failed, so a place taken by a pending claim is not offered again.
    available_count: Math.max(0, row.totalCount - row.reservedCount),
    blockchain_id: ctx.blockchainId,
    contract_address: ctx.contractAddress,
    ...snakeCased(row, ["status", "transactionHash", "failureReason"]),
    is_active: row.status === "confirmed",
    block_number: blockNumberOf(row),
    finalized_at: finalizedAtOf(row),
    ...timestampsOf(row),
  };
}

export function presentOrganization(
  { row }: OrganizationView,
  ctx: PresentContext,
): z.input<typeof Organization> {
  return {
    ...snakeCased(row, ["id", "name", "description", "parentId", "externalId", "walletAddress"]),
    claims_to_linked_wallet: row.claimsToLinkedWallet,
    blockchain_id: ctx.blockchainId,
    logo: imageUrls(ctx.storage, row.logo, ctx.baseUrl),
    cover: imageUrls(ctx.storage, row.cover, ctx.baseUrl),
    is_active: row.isActive,
    ...timestampsOf(row),
  };
}

export function presentUser(
  { row, claimedCount }: UserView,
  ctx: PresentContext,
): z.input<typeof User> {
  return {
    ...snakeCased(row, ["id", "organizationId", "email", "name", "externalId", "walletAddress"]),
    linked_wallet: row.linkedWallet,
    linked_at: momentOf(row.linkedAt),
    blockchain_id: ctx.blockchainId,
    claimed_count: claimedCount,
    is_active: row.isActive,
    ...timestampsOf(row),
  };
}

/** A move of a token home (to the user's linked wallet) as the API answers it. */
export function presentTransferHome(
  move: MoveWithToken,
  ctx: PresentContext,
): z.input<typeof TransferHome> {
  return {
    id: move.id,
    user_id: move.userId,
    claim_id: move.claimId,
    token_id: tokenIdHex(move.collectibleId, move.claimId),
    blockchain_id: ctx.blockchainId,
    from_address: move.fromAddress,
    to_address: move.toAddress,
    status: move.status,
    transaction_hash: move.transactionHash,
    failure_reason: move.failureReason,
    ...timestampsOf(move),
  };
}
