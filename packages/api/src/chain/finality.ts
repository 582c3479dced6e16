/**
 * Confirmed means "in the chain the indexer follows now", and final means "at or below the
 * chain's finalized block". Each round the relayer compares the hash recorded for every block
 * that holds a mined row not yet final with the canonical hash at that number: a block a reorg
 * replaced takes its rows back (pending again; sent again when the chain lacks them, confirmed
 * again with the indexer's new facts when their transaction was mined again), and rows below
 * the finalized block become final. Only rows not yet final are watched, and a round reads one
 * block (the highest that holds a row) unless that one was replaced. Moves home (sent by
 * chain/homeSender.ts) are followed alike.
 */

import type { Hex } from "viem";
import type { Database } from "../db/driver/client.ts";
import {
  adoptBlockHash,
  confirmedNotFinal,
  type RecordedBlock,
  rowsInBlocks,
  unfinalizedBlocks,
} from "../db/finality.ts";
import { confirmedMovesAbove, moveMinedAgain, reopenMoves } from "../db/transfersHome.ts";
import type { ReadinessCheck, ReorgSeen } from "../deps.ts";
import { finalizeUpTo, takeBack } from "../services/chainOutcomes.ts";
import type { ChainBlock, ChainClient } from "./chainClient.ts";
import type { RelayerContext } from "./relayerContext.ts";

const CHUNK = 500;

async function inChunks<T, R>(items: T[], each: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += CHUNK) {
    results.push(...(await Promise.all(items.slice(i, i + CHUNK).map(each))));
  }
  return results;
}

/**
 * Which of these recorded blocks (each with its hash) the chain has replaced. A block's hash
 * commits to every block below it: while the highest is still the chain's, so is each lower one,
 * and one read answers for all of them.
 */
async function replacedBlocks(
  chain: Pick<ChainClient, "blockAt">,
  recorded: RecordedBlock[],
): Promise<RecordedBlock[]> {
  let top = -1n;
  for (const block of recorded) if (block.number > top) top = block.number;
  const head = top >= 0n ? await chain.blockAt(top) : undefined;
  if (!recorded.some((block) => block.number === top && block.hash !== head?.hash)) return [];
  const numbers = [...new Set(recorded.map((block) => block.number))];
  const canonical = new Map<bigint, ChainBlock | undefined>();
  await inChunks(numbers, async (n) => canonical.set(n, await chain.blockAt(n)));
  return recorded.filter((block) => canonical.get(block.number)?.hash !== block.hash);
}

/**
 * One round: takes back rows whose block was replaced (answering the reorg, if any), then makes
 * final what the finalized block covers. `depth` is the finality depth of a chain without a
 * `finalized` tag.
 */
export async function followFinality(
  ctx: RelayerContext,
  depth: number,
): Promise<ReorgSeen | undefined> {
  const { chain, db } = ctx;
  const recorded = await unfinalizedBlocks(db);
  const replaced = await replacedBlocks(
    chain,
    recorded.filter((block) => block.hash !== null),
  );
  for (const block of recorded.filter((b) => b.hash === null)) {
    const now = await chain.blockAt(block.number);
    if (now) await adoptBlockHash(db, block.number, now.hash);
    else replaced.push(block);
  }
  const reorg = replaced.length > 0 ? await takeBackReplaced(ctx, replaced) : undefined;

  const finalized = await chain.finalizedBlock(depth);
  if ((await finalizeUpTo(db, finalized)) > 0) ctx.statusWaiter.statusesChanged();
  if (await takeBackDroppedMoves(ctx, finalized)) ctx.statusWaiter.statusesChanged();
  return reorg;
}

/**
 * Confirmed moves whose block a reorg replaced: one whose transaction the chain mined again
 * records its new block; one the chain dropped is under way again, and the next round sends it
 * (or finds its token home). Answers whether any move changed.
 */
async function takeBackDroppedMoves(ctx: RelayerContext, finalized: bigint): Promise<boolean> {
  const moves = await confirmedMovesAbove(ctx.db, finalized);
  const recorded = moves.flatMap((move) =>
    move.minedBlock === null ? [] : [{ number: move.minedBlock, hash: move.minedBlockHash }],
  );
  const replaced = new Set((await replacedBlocks(ctx.chain, recorded)).map((b) => b.number));
  const dropped: string[] = [];
  for (const move of moves) {
    if (move.minedBlock === null || !replaced.has(move.minedBlock)) continue;
    const again = move.transactionHash && (await ctx.chain.receiptOf(move.transactionHash as Hex));
    if (again && again.status === "success") {
      await moveMinedAgain(ctx.db, move.id, again.blockNumber, again.blockHash);
    } else dropped.push(move.id);
  }
  if (dropped.length > 0) {
    ctx.logger.warn({ moves: dropped.length }, "a reorg dropped moves home: sending them again");
    await reopenMoves(ctx.db, dropped);
  }
  return dropped.length > 0;
}

async function takeBackReplaced(
  ctx: RelayerContext,
  replaced: RecordedBlock[],
): Promise<ReorgSeen> {
  const { chain, db, logger } = ctx;
  const head = await chain.head();
  const rows = await rowsInBlocks(db, replaced);
  const collectibles = await inChunks(rows.collectibles, async (row) => ({
    id: row.id,
    onChain: await chain.collectibleExists(row.id),
  }));
  const claims = await inChunks(rows.claims, async (row) => ({
    id: row.id,
    onChain: await chain.isClaimed(row.collectibleId, row.id),
  }));
  await takeBack(db, { collectibles, claims }, head);
  ctx.statusWaiter.statusesChanged();
  // The reorg may have dropped the relayer's own transactions: its nonce is the chain's again,
  // and what it considered sent is looked for on the chain before anything is sent.
  ctx.nonce = undefined;
  ctx.needsReconcile = true;

  let fromBlock = head.number;
  for (const block of replaced) if (block.number < fromBlock) fromBlock = block.number;
  const lost = (list: { onChain: boolean }[]) => list.filter((r) => !r.onChain).length;
  const seen: ReorgSeen = {
    fromBlock,
    depth: Number(head.number - fromBlock) + 1,
    objects: collectibles.length + claims.length,
    at: new Date(),
  };
  logger.warn(
    {
      fromBlock: String(fromBlock),
      depth: seen.depth,
      collectibles: collectibles.length,
      claims: claims.length,
      toSendAgain: lost(collectibles) + lost(claims),
    },
    "a reorg replaced blocks holding mined objects: their confirmations are withdrawn",
  );
  return seen;
}

/**
 * The `finality` readiness check: always up (a reorg is healed, not a fault), it says how many
 * objects are confirmed but not final, and the last reorg seen.
 */
export function finalityCheck(db: Database, lastReorg: () => ReorgSeen | null): ReadinessCheck {
  return {
    name: "finality",
    critical: false,
    async check() {
      const open = await confirmedNotFinal(db);
      const reorg = lastReorg();
      const last = reorg
        ? `last reorg: ${reorg.depth} blocks from block ${reorg.fromBlock}, ` +
          `${reorg.objects} objects taken back at ${reorg.at.toISOString()}`
        : "no reorg seen since start";
      return `${open.collectibles} collectibles and ${open.claims} claims confirmed, not final; ${last}`;
    },
  };
}
