/** The relayer's view of the claims waiting to be sent (`unsentClaims`). */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test/testDatabase.ts";
import { unsentClaims } from "./chainIntents.ts";
import { claims, collectibles, organizations, users } from "./schema.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

it("tells which waiting claims go to their holder's service wallet, so the relayer asks the chain no code of those", async () => {
  const [org] = await database.db
    .insert(organizations)
    .values({ name: "Intents", walletIndex: 1, walletAddress: address(1) })
    .returning();
  if (!org) throw new Error("organization not created");
  const [derived, ownAddress, moved] = await database.db
    .insert(users)
    .values([
      // Derived by the service (lower case here, checksummed in the claim: the same account).
      {
        organizationId: org.id,
        email: "derived@intents.example",
        walletIndex: 2,
        walletAddress: "0x00000000000000000000000000000000000000ab",
      },
      // Brought by the user: it may be a contract.
      { organizationId: org.id, email: "own@intents.example", walletAddress: address(3) },
      {
        organizationId: org.id,
        email: "moved@intents.example",
        walletIndex: 5,
        walletAddress: address(5),
      },
    ])
    .returning();
  if (!derived || !ownAddress || !moved) throw new Error("users not created");
  const [collectible] = await database.db
    .insert(collectibles)
    .values({ organizationId: org.id, name: "Waiting", totalCount: 10, minedBlock: 1n })
    .returning();
  if (!collectible) throw new Error("collectible not created");
  const claimOf = (holderId: string, mintedTo: string) => ({
    collectibleId: collectible.id,
    holderId,
    mintedTo,
  });
  await database.db.insert(claims).values([
    claimOf(derived.id, "0x00000000000000000000000000000000000000AB"),
    claimOf(ownAddress.id, address(3)),
    // Minted to an address that is not (or no longer) the holder's service wallet.
    claimOf(moved.id, address(4)),
  ]);

  // One insert: one created_at, so the order among them is the ids'.
  const waiting = await unsentClaims(database.db, 10);
  const byAddress = Object.fromEntries(waiting.map((c) => [c.mintedTo, c.toServiceWallet]));
  expect(byAddress).toEqual({
    "0x00000000000000000000000000000000000000AB": true,
    [address(3)]: false,
    [address(4)]: false,
  });
});
