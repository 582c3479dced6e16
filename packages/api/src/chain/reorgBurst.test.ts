/**
 * Reorgs during a claim burst: while clients post claims, the chain replaces its last blocks
 * twice (depths and moments drawn from FAULT_SEED), dropping the mints they held and whatever
 * the relayer had in flight. Every accepted claim ends minted exactly once, the API, the indexer
 * and the chain agreeing on counts and editions, and no claim's events say confirmed twice
 * without a withdrawal between.
 */
import { describe, expect, it } from "vitest";
import { expectAgreement } from "../test/agreement.ts";
import { apiProcessesOnChainPerFile, jsonOf } from "../test/apiProcess.ts";
import { burst, faultRandom, until } from "../test/faults.ts";
import { wholeFeed } from "../test/feed.ts";

const API_KEY = "ck_test_reorgburstreorgburstreorgburst";
const CLAIMS = 120;

const { start, call, createCollectible, stack } = apiProcessesOnChainPerFile({
  name: "reorg-burst",
  apiKey: API_KEY,
  settings: (chain) => ({ ...chain.env, CONFIRM_TIMEOUT_MS: "2000" }),
});

describe("reorgs during a claim burst", { timeout: 420_000 }, () => {
  it("end with every accepted claim minted once, counts agreeing and each confirmation withdrawn before it is made again", async () => {
    const random = faultRandom("reorgs during a claim burst");
    const [first, second] = random.distinctInts(2, 10, CLAIMS - 10);
    const depths = [1 + Math.floor(random.next() * 4), 1 + Math.floor(random.next() * 4)];
    const context = `(FAULT_SEED=${random.seed}: reorgs of ${depths} blocks after ${first} and ${second} answers)`;
    console.log(`reorgs during a claim burst: ${context}`);

    const api = await start();
    const get = async (path: string) => jsonOf(await call(api.url, "GET", path));
    const org = await jsonOf(await call(api.url, "POST", "/organizations", { name: "Burst" }));
    const created = await jsonOf(await createCollectible(api.url, org.data.id, "Burst", CLAIMS));
    const collectibleId: string = created.data.id;
    await until("the collectible confirmed", async () =>
      (await get(`/collectibles/${collectibleId}`)).data.status === "confirmed" ? true : undefined,
    );

    const answers: { status: number; id: string }[] = [];
    const reorgs: Promise<unknown>[] = [];
    await burst(
      CLAIMS,
      6,
      async (i) => {
        const res = await call(api.url, "POST", "/claims", {
          collectible_id: collectibleId,
          email: `burst-${i}@reorg.example`,
        });
        answers[i] = { status: res.status, id: (await jsonOf(res)).data?.id };
      },
      (done) => {
        const at = [first, second].indexOf(done);
        if (at >= 0) {
          reorgs.push(
            stack.client.request({ method: "anvil_reorg", params: [depths[at], []] } as never),
          );
        }
      },
    );
    await Promise.all(reorgs);
    for (const answer of answers) expect([201, 202], context).toContain(answer.status);

    await expectAgreement(stack, async (path) => get(path), collectibleId, CLAIMS, { context });

    // Per claim, the feed never says confirmed twice without a withdrawal between.
    const lastOf = new Map<string, string>();
    let withdrawn = 0;
    for (const event of await wholeFeed(get)) {
      const id = event.data?.id;
      if (!id || !event.type.startsWith("claim.")) continue;
      if (event.type === "claim.confirmed") {
        expect(lastOf.get(id), `${id} ${context}`).not.toBe("claim.confirmed");
      }
      lastOf.set(id, event.type);
      if (event.type === "claim.reorged") withdrawn++;
    }
    for (const answer of answers) expect(lastOf.get(answer.id), context).toBe("claim.confirmed");
    // The reorgs took confirmed mints back (every block of the local chain holds one).
    expect(withdrawn, context).toBeGreaterThan(0);
    await api.process.stop();
  });
});
