import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test/testDatabase.ts";
import { nextWalletIndexes, upcomingWalletIndex } from "./walletIndexes.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

it("names the index the sequence hands out next, before and after indexes are taken, taking none", async () => {
  const first = await upcomingWalletIndex(database.db);
  expect(await upcomingWalletIndex(database.db)).toBe(first);
  expect(await nextWalletIndexes(database.db, 1)).toEqual([first]);
  const taken = await nextWalletIndexes(database.db, 3);
  expect(await upcomingWalletIndex(database.db)).toBe(Math.max(...taken) + 1);
});
