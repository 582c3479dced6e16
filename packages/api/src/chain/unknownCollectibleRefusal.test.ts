/**
 * Never serving state the chain does not have, on a chain that is not the local one: when the
 * chain lacks a collectible the records hold as mined, a claim on it neither fails nor confirms;
 * the relayer audits, stops sending, and `/ready` answers 503 naming what the chain lacks.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { createPublicClient, http } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { apiProcessesPerFile, jsonOf } from "../test/apiProcess.ts";
import { until } from "../test/faults.ts";

const API_KEY = "ck_test_unknowncollectiblerefusalrefuse";
/** A key of its own: the development accounts' keys are refused on a chain other than 31337. */
const RELAYER_KEY = generatePrivateKey();
const TIMEOUT = 180_000;

let chain: LocalChain;
let deploymentsDir: string;
const { start, call, createCollectible } = apiProcessesPerFile({
  name: "refusal",
  apiKey: API_KEY,
  async setUp() {
    chain = await startLocalChain({ chainId: 100 });
    deploymentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-refusal-deployments-"));
    const relayer = privateKeyToAddress(RELAYER_KEY);
    await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir, minter: relayer });
    // Gas money for the relayer, as an operator would send it.
    await createPublicClient({ transport: http(chain.rpcUrl) }).request({
      method: "anvil_setBalance",
      params: [relayer, "0x56BC75E2D63100000"],
    } as never);
    return {
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: "100",
      DEPLOYMENTS_DIR: deploymentsDir,
      RELAYER_PRIVATE_KEY: RELAYER_KEY,
      CONFIRM_TIMEOUT_MS: "10000",
    };
  },
  async tearDown() {
    await chain?.stop();
    if (deploymentsDir) fs.rmSync(deploymentsDir, { recursive: true, force: true });
  },
});

describe("a chain other than the local one that lacks a confirmed collectible", () => {
  it(
    "keeps the claim pending, sends nothing more, and /ready names what the chain lacks",
    async () => {
      const client = createPublicClient({ transport: http(chain.rpcUrl) });
      const rpc = (method: string, params: unknown[] = []) =>
        client.request({ method, params } as never) as Promise<unknown>;
      const api = await start();
      const org = await jsonOf(await call(api.url, "POST", "/organizations", { name: "Far" }));
      const saved = await rpc("evm_snapshot");
      const created = await jsonOf(await createCollectible(api.url, org.data.id, "Gone", 3));
      expect(created.data.status).toBe("confirmed");
      await rpc("evm_revert", [saved]);

      const claim = await jsonOf(
        await call(api.url, "POST", "/claims", {
          collectible_id: created.data.id,
          email: "far@refusal.example",
        }),
      );
      const ready = await until(
        "/ready to name what the chain lacks",
        async () => {
          const res = await call(api.url, "GET", "/ready");
          return res.status === 503 ? await jsonOf(res) : undefined;
        },
        { timeoutMs: 60_000 },
      );
      const relayer = ready.error.details.find((c: { name: string }) => c.name === "relayer");
      expect(relayer.message).toMatch(/the chain lacks 1 collectibles and 0 claims/);
      const after = await jsonOf(await call(api.url, "GET", `/claims/${claim.data.id}`));
      expect(after.data.status).toBe("pending");
      const collectible = await jsonOf(
        await call(api.url, "GET", `/collectibles/${created.data.id}`),
      );
      expect(collectible.data.status).toBe("pending");
      await api.process.stop();
    },
    TIMEOUT,
  );
});
