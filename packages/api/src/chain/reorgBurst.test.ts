/**
 * Reorgs during a claim burst: while clients post claims, the chain replaces its last blocks
 * twice (moments drawn from FAULT_SEED, each reaching 1 to 4 blocks below the newest confirmed
 * answer's block), dropping the mints they held and whatever the relayer had in flight. Every
 * accepted claim ends minted exactly once, the API, the indexer and the chain agreeing on counts
 * and editions, and no claim's events say confirmed twice without a withdrawal between.
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
    const below = [random.int(1, 4), random.int(1, 4)];
    const context = `(FAULT_SEED=${random.seed}: reorgs after ${first} and ${second} answers, reaching ${below} blocks below the newest confirmed answer's)`;
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
    // A reorg of blocks above every confirmed claim would take back only mints not yet confirmed,
    // which tells integrators nothing: each reorg reaches below the block of the newest 201.
    let newestConfirmedBlock = 0n;
    const reorgBelowConfirmed = async (blocks: number) => {
      const head = await stack.client.getBlockNumber();
      // Its block and `blocks` below it: one block mined meanwhile still leaves it inside.
      const depth = Number(head - newestConfirmedBlock) + 1 + blocks;
      await stack.client.request({ method: "anvil_reorg", params: [depth, []] } as never);
    };
    const reorgs: Promise<unknown>[] = [];
    await burst(
      CLAIMS,
      6,
      async (i) => {
        const res = await call(api.url, "POST", "/claims", {
          collectible_id: collectibleId,
          email: `burst-${i}@reorg.example`,
        });
        const { data } = await jsonOf(res);
        answers[i] = { status: res.status, id: data?.id };
        if (res.status === 201 && BigInt(data.block_number) > newestConfirmedBlock) {
          newestConfirmedBlock = BigInt(data.block_number);
        }
      },
      (done) => {
        // At the drawn answer, or the first 201 after it.
        const moment = [first, second][reorgs.length];
        if (moment !== undefined && done >= moment && newestConfirmedBlock > 0n) {
          reorgs.push(reorgBelowConfirmed(below[reorgs.length] as number));
        }
      },
    );
    await Promise.all(reorgs);
    expect(reorgs.length, context).toBe(2);
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
    // The reorgs took confirmed mints back.
    expect(withdrawn, context).toBeGreaterThan(0);
    await api.process.stop();
  });
});
