/**
 * Cleaning up what expires: Idempotency-Key records past IDEMPOTENCY_TTL_HOURS (they already read
 * as absent; this keeps the table small). Safe to run in every API process at once.
 */
import type { Database } from "../db/driver/client.ts";
import { deleteExpiredIdempotencyKeys } from "../db/idempotencyKeys.ts";
import type { Env } from "../env.ts";
import type { Logger } from "../logger.ts";

const EVERY_MS = 15 * 60_000;

export function startHousekeeping(
  db: Database,
  config: Pick<Env, "IDEMPOTENCY_TTL_HOURS">,
  logger: Logger,
): { stop(): void } {
  const clean = async () => {
    try {
      const deleted = await deleteExpiredIdempotencyKeys(
        db,
        config.IDEMPOTENCY_TTL_HOURS * 3_600_000,
      );
      if (deleted > 0) logger.info({ deleted }, "expired Idempotency-Key records deleted");
    } catch (error) {
      logger.warn({ err: (error as Error).message }, "could not delete expired Idempotency-Keys");
    }
  };
  void clean();
  const timer = setInterval(clean, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
