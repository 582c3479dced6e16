/**
 * What every presenter shares: its context (the chain's facts and where image links point, built
 * once per request), and the fields every presenter answers the same way.
 */
import { getAddress } from "viem";
import type { AppDeps } from "../deps.ts";
import type { ImageStorage } from "../images/imageStorage.ts";

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

export function blockchainIdOf(chainId: number): string {
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
export function snakeCased<Row, K extends keyof Row & string>(
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
export const blockNumberOf = (row: { minedBlock: bigint | null }) =>
  row.minedBlock === null ? null : Number(row.minedBlock);

/** `finalized_at`: when the row's block became final, or null. */
export const finalizedAtOf = (row: { finalizedAt: Date | string | null }) =>
  row.finalizedAt === null ? null : isoOf(row.finalizedAt);

/** A moment that may be absent: ISO 8601, UTC, milliseconds, or null. */
export const momentOf = (moment: Date | string | null) => (moment === null ? null : isoOf(moment));
