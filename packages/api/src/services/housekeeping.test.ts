/** Housekeeping deletes expired Idempotency-Key records, and its stop waits for a round. */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { idempotencyKeys } from "../db/schema.ts";
import { createLogger } from "../logger.ts";
import { until } from "../test/faults.ts";
import { createTestDatabase, type TestDatabase } from "../test/testDatabase.ts";
import { startHousekeeping } from "./housekeeping.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

it("deletes the Idempotency-Key records past their time as it starts, keeps the others, and stops", async () => {
  const apiKeyId = randomUUID();
  const record = (key: string, hoursAgo: number) => ({
    apiKeyId,
    key,
    requestHash: "hash",
    createdAt: sql`now() - make_interval(hours => ${hoursAgo})`,
  });
  await database.db.insert(idempotencyKeys).values([record("old", 3), record("fresh", 0)]);
  const housekeeping = startHousekeeping(
    database.db,
    { IDEMPOTENCY_TTL_HOURS: 2 },
    createLogger({ level: "silent" }),
  );
  const keys = async () =>
    (await database.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map(
      (row) => row.key,
    );
  await until("the expired record deleted", async () =>
    (await keys()).includes("old") ? undefined : true,
  );
  expect(await keys()).toEqual(["fresh"]);
  await housekeeping.stop();
});
