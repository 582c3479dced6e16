/**
 * The deepest reorg the stack follows on this chain: 30 blocks, the indexer's finality depth
 * (Ponder's, on every chain but Ethereum, Polygon and Arbitrum; it calls a deeper one
 * unrecoverable). Everything in them, the collectible's creation included, is taken back, made
 * again and confirmed once; what was final before it stays final and untouched.
 */
import { describe, expect, it } from "vitest";
import { apiProcessesOnChainPerFile } from "../test/apiProcess.ts";
import { until } from "../test/faults.ts";
import { reorgKit } from "./reorg.testkit.ts";

const processes = apiProcessesOnChainPerFile({
  name: "reorg-deep",
  apiKey: "ck_test_reorgdeepreorgdeepreorgdeepreo",
  settings: (chain) => ({ ...chain.env, CONFIRM_TIMEOUT_MS: "10000" }),
});
const { start } = processes;
const reorg = reorgKit(processes);

describe("a reorg of 30 blocks", { timeout: 240_000 }, () => {
  it("takes back the collectible and its claims, makes them again and confirms each once; a final claim stays", async () => {
    const api = await start();
    const older = await reorg.newCollectible(api, "Final before", 2);
    const final = await reorg.confirmedClaim(api, older.id, "final@deep.example");
    await reorg.rpc("anvil_mine", [64]);
    const finalAt = await until(
      "the first claim final",
      async () => (await reorg.get(api, `/claims/${final.id}`)).finalized_at ?? undefined,
    );

    const collectible = await reorg.newCollectible(api, "Deep", 3);
    const claims: string[] = [];
    for (const who of ["a", "b"]) {
      claims.push((await reorg.confirmedClaim(api, collectible.id, `${who}@deep.example`)).id);
    }
    // The creation and both mints are now within the last 30 blocks: replace them all.
    await reorg.rpc("anvil_mine", [25]);
    await reorg.indexerAtHead();
    await reorg.rpc("anvil_reorg", [30, []]);

    await reorg.recovered(api, collectible.id, claims);
    expect(await reorg.eventsOf(api, [collectible.id])).toEqual([
      `collectible.confirmed ${collectible.id}`,
      `collectible.reorged ${collectible.id}`,
      `collectible.confirmed ${collectible.id}`,
    ]);
    // Below the finalized block nothing moved.
    const stillFinal = await reorg.get(api, `/claims/${final.id}`);
    expect(stillFinal).toMatchObject({ status: "confirmed", finalized_at: finalAt });
    expect(await reorg.eventsOf(api, [final.id])).toEqual([
      `claim.confirmed ${final.id}`,
      `claim.finalized ${final.id}`,
    ]);
    await api.process.stop();
  });
});
