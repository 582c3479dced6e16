/**
 * Cleaning up what expires: Idempotency-Key records past IDEMPOTENCY_TTL_HOURS (they already read
 * as absent; this keeps the table small). And folding the list counts' appended changes (all
 * users', each collectible's claims by status) every few seconds, so that a count sums a few
 * rows. Safe to run in every API process at once.
 */
import { foldClaimCountChanges } from "../db/claims.ts";
import type { Database } from "../db/driver/client.ts";
import { databaseErrorText } from "../db/driver/pgError.ts";
import { deleteExpiredIdempotencyKeys } from "../db/idempotencyKeys.ts";
import { foldUserCountChanges } from "../db/users.ts";
import type { Env } from "../env.ts";
import { pollLoop } from "../lib/pollLoop.ts";
import type { Logger } from "../logger.ts";

const EVERY_MS = 15 * 60_000;
/**
 * Each statement that writes users or claims appends a row (per collectible and status for
 * claims): at a few hundred a second, a few seconds' worth.
 */
const FOLD_EVERY_MS = 2_000;

export function startHousekeeping(
  db: Database,
  config: Pick<Env, "IDEMPOTENCY_TTL_HOURS">,
  logger: Logger,
): { stop(): Promise<void> } {
  // The next round starts once the last has ended: a database that does not answer gets one at a
  // time, not a queue of them.
  const cleans = pollLoop(
    async () => {
      const ttlMs = config.IDEMPOTENCY_TTL_HOURS * 3_600_000;
      const deleted = await deleteExpiredIdempotencyKeys(db, ttlMs);
      if (deleted > 0) logger.info({ deleted }, "expired Idempotency-Key records deleted");
      return false;
    },
    EVERY_MS,
    (error) =>
      logger.warn({ err: databaseErrorText(error) }, "could not delete expired Idempotency-Keys"),
  );
  const folds = pollLoop(
    async () => {
      await foldUserCountChanges(db);
      await foldClaimCountChanges(db);
      return false;
    },
    FOLD_EVERY_MS,
    (error) =>
      logger.warn({ err: databaseErrorText(error) }, "could not fold the list counts' changes"),
  );
  return {
    /** Resolves once a round under way has ended, so the database can be closed after it. */
    async stop() {
      await Promise.all([cleans.stop(), folds.stop()]);
    },
  };
}
