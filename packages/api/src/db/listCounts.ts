/**
 * The `count` of list answers, remembered between requests. An exact `count(*)` walks every
 * matching row (tens of milliseconds at 100,000 claims), while the page itself reads 100: counting
 * on every request would make the count, not the page, the cost of a list.
 *
 * A remembered count is dropped by any write this process answers (`invalidate`, called when a
 * POST, PATCH, PUT or DELETE request ends), so counts follow a client's own writes at once.
 * Other changes show within `maxAgeMs`: writes by another API process on the same PostgreSQL,
 * and what the chain decides (the relayer's status changes, a token's new holder), which only the
 * `status` and `holder_wallet_address` filters of claims see. Requests asking for a count that
 * is being counted wait for that count rather than start another (under load, a burst of
 * `count(*)` of 100,000 rows each would cost more than the pages themselves).
 */
import { type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Queryable } from "./client.ts";
import type { Scope } from "./scope.ts";

/** The key of a list's count: which list, whose scope, which filters. */
export function listKey(list: string, scope: Scope, filters: object): string {
  return JSON.stringify([list, scope.organizationId, filters]);
}

/** The exact number of rows of `table` matching `where`: what a list's count is made of. */
export async function countRows(q: Queryable, table: PgTable, where: SQL | undefined) {
  const [counted] = await q.select({ count: sql<number>`count(*)::int` }).from(table).where(where);
  return counted?.count ?? 0;
}

export class ListCounts {
  #generation = 0;
  readonly #entries = new Map<string, { generation: number; count: number; at: number }>();
  /** Counts running now, by key. */
  readonly #counting = new Map<string, { generation: number; count: Promise<number> }>();

  constructor(
    private readonly maxAgeMs = 2_000,
    private readonly maxEntries = 1_000,
  ) {}

  /** Forgets every count: a write may have changed any list. */
  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
    this.#counting.clear();
  }

  /**
   * Until when (`Date.now()`) the count remembered for `key` may be given; 0 when none is
   * remembered. An answer kept with its count is kept no longer (http/listPages.ts).
   */
  freshUntil(key: string): number {
    const known = this.#entries.get(key);
    return known && known.generation === this.#generation ? known.at + this.maxAgeMs : 0;
  }

  /** The count for `key` (the list and its filters), counted by `count` when not remembered. */
  async get(key: string, count: () => Promise<number>): Promise<number> {
    const now = Date.now();
    const known = this.#entries.get(key);
    if (known && known.generation === this.#generation && now - known.at < this.maxAgeMs) {
      return known.count;
    }
    // A write ending while this count runs may or may not be in it: then it is not remembered,
    // and later requests count again.
    const generation = this.#generation;
    const running = this.#counting.get(key);
    if (running && running.generation === generation) return running.count;
    const counting = count();
    this.#counting.set(key, { generation, count: counting });
    let value: number;
    try {
      value = await counting;
    } finally {
      if (this.#counting.get(key)?.count === counting) this.#counting.delete(key);
    }
    if (generation === this.#generation) {
      this.#entries.delete(key);
      if (this.#entries.size >= this.maxEntries) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
      this.#entries.set(key, { generation, count: value, at: now });
    }
    return value;
  }
}
