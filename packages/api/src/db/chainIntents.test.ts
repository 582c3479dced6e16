/** The relayer's view of the claims waiting to be sent (`unsentClaims`). */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, insertOrganization, type TestDatabase } from "../test/testDatabase.ts";
import { unsentClaims } from "./chainIntents.ts";
import { claims, collectibles, users } from "./schema.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const BROUGHT = "0x0000000000000000000000000000000000000003";
const DERIVED_UNUSED = "0x0000000000000000000000000000000000000005";
const ELSEWHERE = "0x0000000000000000000000000000000000000004";

it("tells which waiting claims go to their holder's service wallet, so the relayer asks the chain no code of those", async () => {
  const org = await insertOrganization(database.db, "Intents", 1);
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
      { organizationId: org.id, email: "own@intents.example", walletAddress: BROUGHT },
      {
        organizationId: org.id,
        email: "moved@intents.example",
        walletIndex: 5,
        walletAddress: DERIVED_UNUSED,
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
    claimOf(ownAddress.id, BROUGHT),
    // Minted to an address that is not (or no longer) the holder's service wallet.
    claimOf(moved.id, ELSEWHERE),
  ]);

  // One insert: one created_at, so the order among them is the ids'.
  const waiting = await unsentClaims(database.db, 10);
  const byAddress = Object.fromEntries(waiting.map((c) => [c.mintedTo, c.toServiceWallet]));
  expect(byAddress).toEqual({
    "0x00000000000000000000000000000000000000AB": true,
    [BROUGHT]: false,
    [ELSEWHERE]: false,
  });
});
