/**
 * POST's bounded wait for a pending collectible or claim to become final (confirmed or failed).
 *
 * One loop serves every waiting request: it reads the statuses of all waited-for rows in one
 * query per kind, whenever the relayer says statuses changed (same process) and at least every
 * `pollMs` (a relayer in another process).
 */
import type { Queryable } from "../db/driver/client.ts";
import { type IntentKind, statusesOf } from "../db/intentStatuses.ts";
import type { ChainStatus } from "../db/schema.ts";
import type { StatusWaiter } from "../deps.ts";

export type { IntentKind } from "../db/intentStatuses.ts";

interface Waiter {
  kind: IntentKind;
  id: string;
  resolve(status: ChainStatus): void;
}

export function createStatusWaiter(db: Queryable, { pollMs = 250 } = {}): StatusWaiter {
  const waiters = new Set<Waiter>();
  let looping = false;
  let stopped = false;
  let wake: (() => void) | undefined;
  // A change reported while a check runs: check again at once.
  let dirty = false;

  async function check(): Promise<void> {
    for (const kind of ["collectible", "claim"] as const) {
      const ids = [...waiters].filter((w) => w.kind === kind).map((w) => w.id);
      if (ids.length === 0) continue;
      const statuses = await statusesOf(db, kind, [...new Set(ids)]);
      for (const w of waiters) {
        const status = w.kind === kind ? statuses.get(w.id) : undefined;
        if (status && status !== "pending") {
          waiters.delete(w);
          w.resolve(status);
        }
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
    waitForFinal(kind, id, timeoutMs) {
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
    statusesChanged() {
      dirty = true;
      wake?.();
    },
    stop() {
      stopped = true;
      wake?.();
    },
  };
}
