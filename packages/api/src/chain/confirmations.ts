/**
 * Waiting for a pending collectible or claim to become final, for POST's bounded wait.
 *
 * One loop serves every waiting request: it reads the statuses of all waited-for rows in one
 * query per table, whenever the relayer reports a change (same process) and at least every
 * `pollMs` (a relayer in another process).
 */
import { inArray } from "drizzle-orm";
import type { Queryable } from "../db/client.ts";
import { type ChainStatus, claims, collectibles } from "../db/schema.ts";

export type IntentKind = "collectible" | "claim";

interface Waiter {
  kind: IntentKind;
  id: string;
  resolve(status: ChainStatus): void;
}

export interface Confirmations {
  /** Resolves with the row's status once final, or `pending` after `timeoutMs`. */
  waitFor(kind: IntentKind, id: string, timeoutMs: number): Promise<ChainStatus>;
  /** Rows changed: look now. */
  poke(): void;
  stop(): void;
}

export function createConfirmations(db: Queryable, { pollMs = 250 } = {}): Confirmations {
  const waiters = new Set<Waiter>();
  let looping = false;
  let stopped = false;
  let wake: (() => void) | undefined;
  // A change reported while a check runs: check again at once.
  let dirty = false;

  async function check(): Promise<void> {
    const byKind = { collectible: new Set<string>(), claim: new Set<string>() };
    for (const w of waiters) byKind[w.kind].add(w.id);
    const statuses = new Map<string, ChainStatus>();
    const tables = [
      ["collectible", collectibles],
      ["claim", claims],
    ] as const;
    for (const [kind, table] of tables) {
      const ids = [...byKind[kind]];
      for (let i = 0; i < ids.length; i += 1000) {
        const rows = await db
          .select({ id: table.id, status: table.status })
          .from(table)
          .where(inArray(table.id, ids.slice(i, i + 1000)));
        for (const row of rows) statuses.set(`${kind}:${row.id}`, row.status);
      }
    }
    for (const w of waiters) {
      const status = statuses.get(`${w.kind}:${w.id}`);
      if (status && status !== "pending") {
        waiters.delete(w);
        w.resolve(status);
      }
    }
  }

  async function loop(): Promise<void> {
    looping = true;
    try {
      while (waiters.size > 0 && !stopped) {
        dirty = false;
        try {
          await check();
        } catch {
          // The database hiccuped: the next round tries again; waiters time out on their own.
        }
        if (waiters.size === 0) break;
        if (dirty) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, pollMs);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          wake = done;
        });
      }
    } finally {
      looping = false;
    }
  }

  return {
    waitFor(kind, id, timeoutMs) {
      if (timeoutMs <= 0 || stopped) return Promise.resolve("pending");
      return new Promise((resolve) => {
        const waiter: Waiter = {
          kind,
          id,
          resolve: (status) => {
            clearTimeout(timer);
            resolve(status);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          resolve("pending");
        }, timeoutMs);
        waiters.add(waiter);
        if (!looping) void loop();
        else wake?.();
      });
    },
    poke() {
      dirty = true;
      wake?.();
    },
    stop() {
      stopped = true;
      wake?.();
    },
  };
}
