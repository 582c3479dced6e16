/** BIP-44 address indexes for the wallets the service derives (see `wallets/wallets.ts`). */
import { sql } from "drizzle-orm";
import { type Queryable, rowsOf } from "./driver/client.ts";
import { walletIndexSeq } from "./schema.ts";

/** A fresh index, never handed out before, shared by organizations and users. */
export async function nextWalletIndex(q: Queryable): Promise<number> {
  const [index] = await nextWalletIndexes(q, 1);
  return index as number;
}

/** `count` fresh indexes at once (one statement), in no particular order. */
export async function nextWalletIndexes(q: Queryable, count: number): Promise<number[]> {
  if (count === 0) return [];
  const result = await q.execute(
    sql`select nextval(${walletIndexSeq.seqName}) as index from generate_series(1, ${count})`,
  );
  const indexes = rowsOf<{ index: string | number }>(result).map((row) => Number(row.index));
  if (indexes.length !== count || !indexes.every(Number.isSafeInteger)) {
    throw new Error("wallet index sequence answered too few indexes");
  }
  return indexes;
}

/**
 * Indexes taken from the sequence ahead of need, per database: a group of claims for new holders
 * gets theirs without a round trip most of the time. Those a process never hands out are skipped
 * for good, as a rolled-back `nextval` is (an index only has to be new, not the next one).
 */
const reserves = new WeakMap<object, number[]>();
/** Indexes taken at once beyond what is asked. */
const RESERVE_AHEAD = 64;

/** `count` fresh indexes, from this database's reserve when it holds enough. */
export async function takeWalletIndexes(
  database: object,
  q: Queryable,
  count: number,
): Promise<number[]> {
  let reserve = reserves.get(database);
  if (!reserve) {
    reserve = [];
    reserves.set(database, reserve);
  }
  if (reserve.length < count) {
    reserve.push(...(await nextWalletIndexes(q, count - reserve.length + RESERVE_AHEAD)));
  }
  return reserve.splice(0, count);
}

/** Indexes taken and not handed out after all (no row holds them): the next taker gets them. */
export function giveBackWalletIndexes(database: object, indexes: number[]): void {
  reserves.get(database)?.unshift(...indexes);
}

/** The index the sequence hands out next, without taking it. */
export async function upcomingWalletIndex(q: Queryable): Promise<number> {
  const result = await q.execute(
    sql`select case when is_called then last_value + 1 else last_value end as index
        from ${sql.identifier(walletIndexSeq.seqName as string)}`,
  );
  const [row] = rowsOf<{ index: string | number }>(result);
  return Number(row?.index ?? 0);
}
