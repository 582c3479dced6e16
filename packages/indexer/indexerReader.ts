/**
 * Reads the indexer's tables (what the chain says about collectibles and claims) from the Ponder
 * process over its SQL-over-HTTP route with `@ponder/client`, so a reader needs no connection to
 * the indexer's database. The queries are typed by the indexer's tables as readers declare them
 * (`readTables.ts`, kept equal to the schema by a test); tables and client both come from this
 * package (`client.ts`) so they share one drizzle-orm.
 *
 * "Is block N indexed?" is `isIndexed(N)`: Ponder's `/status` reports, per chain, the last block
 * whose events are all in the tables.
 *
 * Ponder keeps each answer of its SQL route until a table the query names changes while a block is
 * indexed. A reorg's revert tells of no table: a query naming only `claim` went on answering as
 * before the reorg (the holder of a dropped transfer) until Ponder's garbage collector let the
 * answer go (12 to 20 s in the API's tests; longer on an idle indexer; in the suite's reorg test,
 * an answer asked over and over for 3 s before the reorg). Every query here also names
 * `_ponder_checkpoint` (joined on false: no row added), which changes with every block indexed,
 * the blocks that replace a reorg's included, so an answer is kept for one block at the most.
 */

import { getTableColumns } from "drizzle-orm";
import { pgTable, text } from "drizzle-orm/pg-core";
import type { Address } from "viem";
import {
  and,
  asc,
  claim,
  collectible,
  count,
  createClient,
  eq,
  gt,
  inArray,
  lte,
  or,
  schema,
  sql,
} from "./client.ts";

/** A collectible as the chain created it, with its claimed and available counts. */
export type IndexedCollectible = typeof collectible.$inferSelect;
/** A claimed token: who it was minted to, who holds it now, its edition and mint block. */
export type IndexedClaim = typeof claim.$inferSelect;

/** The indexer did not answer (down, starting, or too slow): the API answers 503. */
export class IndexerUnavailableError extends Error {
  override name = "IndexerUnavailableError";
  readonly code = "indexer_unavailable";
}

export interface IndexerReaderOptions {
  /** Base URL of the Ponder process, e.g. `http://127.0.0.1:42069`. */
  url: string;
  /** Chain whose progress `indexedBlock` reports; the only chain indexed when absent. */
  chainId?: number;
  /** Per-call limit before `IndexerUnavailableError`. Default 5 s. */
  timeoutMs?: number;
}

export interface IndexerReader {
  getCollectible(id: string): Promise<IndexedCollectible | null>;
  /** The collectibles among `ids` the chain has (missing ids are absent from the map). */
  collectiblesByIds(ids: readonly string[]): Promise<Map<string, IndexedCollectible>>;
  /** The claim with this claim id (a uuid), or null while it is not minted / not indexed. */
  getClaim(id: string): Promise<IndexedClaim | null>;
  /** The claims among `ids` that are minted (missing ids are absent from the map). */
  claimsByIds(ids: readonly string[]): Promise<Map<string, IndexedClaim>>;
  /** A collectible's claims by edition. */
  claimsOfCollectible(collectibleId: string): Promise<IndexedClaim[]>;
  /**
   * Tokens whose last transfer is in blocks `(afterBlock, upToBlock]`, with their holder now:
   * at most `limit`, in (transfer block, token id) order, starting after `from` when given.
   */
  claimsMovedBetween(
    afterBlock: bigint,
    upToBlock: bigint,
    limit: number,
    from?: { block: bigint; tokenId: bigint },
  ): Promise<IndexedClaim[]>;
  /** How many tokens each address holds now (lowercase keys; addresses holding none are absent). */
  claimCountsByHolder(holders: readonly Address[]): Promise<Map<Address, number>>;
  /** Last block fully indexed, or null before the indexer has processed any. */
  indexedBlock(): Promise<bigint | null>;
  /** Whether every event up to and including `blockNumber` is in the tables. */
  isIndexed(blockNumber: bigint): Promise<boolean>;
  /** Whether historical indexing is done (Ponder's `/ready`); false when unreachable. */
  isReady(): Promise<boolean>;
}

interface PonderStatus {
  [chainName: string]: { id: number; block: { number: number; timestamp: number } };
}

/** Ponder's progress per chain, rewritten with every block it indexes (only its key here). */
const ponderCheckpoint = pgTable("_ponder_checkpoint", { chainName: text("chain_name") });
/** The join that names `_ponder_checkpoint` in a query without adding a row or a column. */
const NO_ROW = sql`false`;
const claimColumns = getTableColumns(claim);
const collectibleColumns = getTableColumns(collectible);

/** The most ids one call takes: a caller with more asks in parts. */
export const MAX_IDS_PER_CALL = 1_000;
/**
 * Ids per request to Ponder: `@ponder/client` sends the query in the URL of a GET, and Node
 * refuses URLs over 16 kB (431), which about 250 UUIDs reach.
 */
const IDS_PER_REQUEST = 100;

/** `ids` in slices of IDS_PER_REQUEST, each read by `read`, the rows together. */
async function readInSlices<Id extends string, Row>(
  ids: Id[],
  read: (slice: Id[]) => Promise<Row[]>,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
    rows.push(...(await read(ids.slice(i, i + IDS_PER_REQUEST))));
  }
  return rows;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;

export function createIndexerReader(options: IndexerReaderOptions): IndexerReader {
  const base = options.url.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 5_000;
  const { db } = createClient(`${base}/sql`, { schema });
  // Each names `_ponder_checkpoint`, so that Ponder keeps no answer past the next block (above).
  const claimRows = () => db.select(claimColumns).from(claim).leftJoin(ponderCheckpoint, NO_ROW);
  const collectibleRows = () =>
    db.select(collectibleColumns).from(collectible).leftJoin(ponderCheckpoint, NO_ROW);

  /** Runs one call with a deadline; network failures become `IndexerUnavailableError`. */
  async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new IndexerUnavailableError(`Indexer did not answer ${what} within ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([run(), deadline]);
    } catch (error) {
      if (error instanceof IndexerUnavailableError) throw error;
      // fetch() rejects with a TypeError when the connection fails; Ponder answers 5xx text.
      throw new IndexerUnavailableError(`Indexer ${what} failed: ${(error as Error).message}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Lowercase, unique, and only well-formed values: one that is not a UUID (or address) names no
   * row, and sent to PostgreSQL it would fail the whole query.
   */
  function checkIds(ids: readonly string[], shape: RegExp = UUID): string[] {
    if (ids.length > MAX_IDS_PER_CALL)
      throw new RangeError(`At most ${MAX_IDS_PER_CALL} ids per call, got ${ids.length}`);
    return [...new Set(ids.map((id) => id.toLowerCase()))].filter((id) => shape.test(id));
  }

  async function collectiblesByIds(ids: readonly string[]) {
    const wanted = checkIds(ids);
    if (wanted.length === 0) return new Map<string, IndexedCollectible>();
    const rows = await readInSlices(wanted, (slice) =>
      call("collectiblesByIds", () => collectibleRows().where(inArray(collectible.id, slice))),
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  async function claimsByIds(ids: readonly string[]) {
    const wanted = checkIds(ids);
    if (wanted.length === 0) return new Map<string, IndexedClaim>();
    const rows = await readInSlices(wanted, (slice) =>
      call("claimsByIds", () =>
        claimRows().where(inArray(claim.id, slice)).orderBy(asc(claim.tokenId)),
      ),
    );
    const byId = new Map<string, IndexedClaim>();
    // A claim id is unique per collectible on-chain; the service never reuses one, so keep the first.
    for (const row of rows) if (!byId.has(row.id)) byId.set(row.id, row);
    return byId;
  }

  async function indexedBlock(): Promise<bigint | null> {
    const status = await call("/status", async () => {
      const response = await fetch(`${base}/status`, { signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) throw new Error(`/status answered ${response.status}`);
      return (await response.json()) as PonderStatus;
    });
    const chains = Object.values(status);
    const chain =
      options.chainId === undefined
        ? chains.length === 1
          ? chains[0]
          : undefined
        : chains.find((c) => c.id === options.chainId);
    if (options.chainId === undefined && chains.length > 1) {
      throw new Error("The indexer indexes several chains: pass chainId to createIndexerReader");
    }
    return chain ? BigInt(chain.block.number) : null;
  }

  return {
    async getCollectible(id) {
      return (await collectiblesByIds([id])).get(id.toLowerCase()) ?? null;
    },
    collectiblesByIds,
    async getClaim(id) {
      return (await claimsByIds([id])).get(id.toLowerCase()) ?? null;
    },
    claimsByIds,
    async claimsOfCollectible(collectibleId) {
      if (!UUID.test(collectibleId.toLowerCase())) return [];
      return call("claimsOfCollectible", () =>
        claimRows()
          .where(eq(claim.collectibleId, collectibleId.toLowerCase()))
          .orderBy(asc(claim.edition)),
      );
    },
    claimsMovedBetween(afterBlock, upToBlock, limit, from) {
      return call("claimsMovedBetween", () =>
        claimRows()
          .where(
            and(
              gt(claim.transferBlockNumber, afterBlock),
              lte(claim.transferBlockNumber, upToBlock),
              from
                ? or(
                    gt(claim.transferBlockNumber, from.block),
                    and(eq(claim.transferBlockNumber, from.block), gt(claim.tokenId, from.tokenId)),
                  )
                : undefined,
            ),
          )
          .orderBy(asc(claim.transferBlockNumber), asc(claim.tokenId))
          .limit(limit),
      );
    },
    async claimCountsByHolder(holders) {
      const wanted = checkIds(holders, ADDRESS) as Address[];
      if (wanted.length === 0) return new Map<Address, number>();
      const rows = await readInSlices(wanted, (slice) =>
        call("claimCountsByHolder", () =>
          db
            .select({ holder: claim.holder, count: count() })
            .from(claim)
            .leftJoin(ponderCheckpoint, NO_ROW)
            .where(inArray(claim.holder, slice))
            .groupBy(claim.holder),
        ),
      );
      return new Map(rows.map((row) => [row.holder as Address, row.count]));
    },
    indexedBlock,
    async isIndexed(blockNumber) {
      const block = await indexedBlock();
      return block !== null && block >= blockNumber;
    },
    async isReady() {
      try {
        const response = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(timeoutMs) });
        await response.arrayBuffer();
        return response.ok;
      } catch {
        return false;
      }
    },
  };
}
