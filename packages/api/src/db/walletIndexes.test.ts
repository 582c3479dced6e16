import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test/testDatabase.ts";
import { nextWalletIndexes, takeWalletIndexes, upcomingWalletIndex } from "./walletIndexes.ts";

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

it("hands out fresh indexes from a reserve, taking from the sequence only when it runs short", async () => {
  const owner = {};
  const first = await takeWalletIndexes(owner, database.db, 2);
  const upcoming = await upcomingWalletIndex(database.db);
  const second = await takeWalletIndexes(owner, database.db, 3);
  expect(await upcomingWalletIndex(database.db)).toBe(upcoming);
  const many = await takeWalletIndexes(owner, database.db, 100);
  const all = [...first, ...second, ...many];
  expect(new Set(all).size).toBe(105);
  expect(Math.min(...many)).toBeGreaterThan(Math.max(...first));
  // Another database's (here: another owner's) reserve never hands out the same index.
  const other = await takeWalletIndexes({}, database.db, 5);
  expect(other.filter((index) => all.includes(index))).toEqual([]);
});
