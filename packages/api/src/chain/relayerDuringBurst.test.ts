/**
 * The relayer keeps sending while a burst of POST /claims keeps the API busy: it runs in the
 * API's process, so claim groups and the requests around them could leave it no turn until the
 * burst is over.
 */
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import { describe, expect, it } from "vitest";
import { until } from "../test/faults.ts";
import { chainAppPerFile } from "../test/perFile.ts";

const CLAIMS = 1200;
const AT_ONCE = 50;
const TIMEOUT = 180_000;

// POST answers 202 without waiting, so the burst goes as fast as the API accepts claims; small
// batches make the relayer need many rounds, each with its calls to the chain.
const { t, stack, org } = chainAppPerFile({
  organization: "Burst Co",
  env: {
    CONFIRM_TIMEOUT_MS: "0",
    RATE_LIMIT_MAX: "1000000",
    RELAYER_BATCH_SIZE: "20",
    RELAYER_MAX_IN_FLIGHT: "4",
  },
});

describe("a burst of POST /claims", { timeout: TIMEOUT }, () => {
  it("leaves the relayer turns: a fifth of the claims are minted before the last is accepted", async () => {
    const created = await t.call("POST", "/collectibles", {
      json: { organization_id: org.id, name: "Burst", total_count: CLAIMS },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const collectible = created.body.data as { id: string };
    await until("the collectible is confirmed", async () => {
      const res = await t.call("GET", `/collectibles/${collectible.id}`);
      return res.body.data.status === "confirmed" ? true : undefined;
    });
    const minted = async () =>
      Number(
        await stack.client.readContract({
          address: stack.contract,
          abi: collectiblesAbi,
          functionName: "claimedCount",
          args: [uuidToBytes16(collectible.id)],
        }),
      );

    // AT_ONCE clients, each sending its next claim as soon as the last one is answered.
    let next = 0;
    const statuses: number[] = [];
    const sender = async () => {
      while (next < CLAIMS) {
        const i = next++;
        const res = await t.call("POST", "/claims", {
          json: { collectible_id: collectible.id, email: `holder-${i}@burst.example` },
        });
        statuses.push(res.status);
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, sender));
    const mintedWhenAccepted = await minted();

    expect(statuses.filter((status) => status !== 202)).toEqual([]);
    // Left without a turn, the relayer had minted only its first rounds' claims by now (with these
    // small batches, some 150 of the 1,200 here, against 500 or more with turns on a quiet
    // machine, and 261 in a run of the whole suite on a slower day).
    expect(mintedWhenAccepted).toBeGreaterThanOrEqual(CLAIMS / 5);
    await until("every claim is minted", async () =>
      (await minted()) === CLAIMS ? true : undefined,
    );
  });
});
