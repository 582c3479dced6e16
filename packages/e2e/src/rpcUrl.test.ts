/**
 * `pnpm start` with RPC_URL (a chain it does not start, with the deployment the operator gives in
 * DEPLOYMENTS_DIR): it starts no node of its own, and the indexer and the API follow that chain,
 * on non-default ports, so a collectible and a claim end confirmed on that very chain.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmed, confirmedCollectible } from "./confirmations.ts";
import { apiOf, dataFolder, killStacks, startStack } from "./localStack.ts";

const dataDir = dataFolder("e2e-rpc-url");
const deploymentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-rpc-url-deployments-"));
let chain: LocalChain;
let contract: `0x${string}`;

beforeAll(async () => {
  chain = await startLocalChain();
  contract = (await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir })).address;
}, 300_000);
afterAll(async () => {
  killStacks();
  await chain?.stop();
  for (const dir of [dataDir, deploymentsDir]) fs.rmSync(dir, { recursive: true, force: true });
});

describe("pnpm start with RPC_URL", () => {
  it("starts no chain and serves the given one: what it confirms is on that chain", async () => {
    const stack = await startStack({
      dataDir,
      env: { RPC_URL: chain.rpcUrl, CHAIN_ID: "31337", DEPLOYMENTS_DIR: deploymentsDir },
    });
    const said = stack.lines.join("\n");
    expect(said).not.toContain("starting a local chain");
    const api = apiOf(stack, stack.printedKey() as string);
    const { collectible } = await confirmedCollectible(api, "Elsewhere", "On the given chain", 2);
    const claim = await api("POST", "/claims", {
      collectible_id: collectible.id,
      email: "given@e2e.example",
    });
    expect(await confirmed(api, `/claims/${claim.body.data.id}`)).toMatchObject({ edition: 1 });
    const onChain = await createPublicClient({ transport: http(chain.rpcUrl) }).readContract({
      address: contract,
      abi: collectiblesAbi,
      functionName: "claimedCount",
      args: [uuidToBytes16(collectible.id)],
    });
    expect(onChain).toBe(1n);
    await stack.stop();
  });
});
