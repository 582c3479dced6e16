/**
 * `pnpm start` with RPC_URL (a chain it does not start, with the deployment the operator gives in
 * DEPLOYMENTS_DIR): it starts no node of its own, and the indexer and the API follow that chain,
 * on non-default ports, so a collectible and a claim end confirmed on that very chain. The data
 * folder is still its own: `--fresh` starts over on an empty database and a new mnemonic, leaving
 * the operator's chain and deployment file alone (and refuses with DATABASE_URL), and a second
 * start on the same folder is refused while the first runs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { createPostgresDatabase } from "@collectibles/devkit/postgres";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { confirmed, confirmedCollectible } from "./confirmations.ts";
import { apiOf, dataFolder, killStacks, runStart, startStack } from "./localStack.ts";

const dataDir = dataFolder("e2e-rpc-url");
const freshDataDir = dataFolder("e2e-rpc-url-fresh");
const sharedDataDir = dataFolder("e2e-rpc-url-second-start");
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
  for (const dir of [dataDir, freshDataDir, sharedDataDir, deploymentsDir])
    fs.rmSync(dir, { recursive: true, force: true });
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

  it("with RPC_URL, --fresh starts over on an empty database, keeping the operator's chain and deployment", async () => {
    const env = { RPC_URL: chain.rpcUrl, CHAIN_ID: "31337", DEPLOYMENTS_DIR: deploymentsDir };
    const first = await startStack({ dataDir: freshDataDir, env });
    const key = first.printedKey() as string;
    const made = await apiOf(first, key)("POST", "/organizations", { name: "Before --fresh" });
    expect(made.status).toBe(201);
    const mnemonicFile = path.join(freshDataDir, "api", "mnemonic");
    const mnemonic = fs.readFileSync(mnemonicFile, "utf8");
    await first.stop();

    const fresh = await startStack({ dataDir: freshDataDir, env, args: ["--fresh"] });
    const said = fresh.lines.join("\n");
    expect(said).toContain(
      "--fresh: removed the database (the API's records, API keys and images; the indexer's " +
        `tables) (${path.join(freshDataDir, "postgres")})`,
    );
    expect(said).toContain(
      `--fresh: removed the wallet mnemonic (${path.join(freshDataDir, "api")})`,
    );
    // The chain and its deployment file are the operator's, and not in the data folder.
    expect(said).not.toMatch(/--fresh: removed the (local chain|contract's deployment file)/);
    expect(fs.existsSync(path.join(deploymentsDir, "31337.json"))).toBe(true);
    expect(fs.readFileSync(mnemonicFile, "utf8")).not.toBe(mnemonic);
    const newKey = fresh.printedKey() as string;
    expect(newKey).toBeDefined();
    expect(newKey).not.toBe(key);
    expect((await apiOf(fresh, key)("GET", "/organizations")).status).toBe(401);
    const api = apiOf(fresh, newKey);
    expect((await api("GET", "/organizations")).body.data).toEqual([]);
    // Still serving the operator's chain, with the contract it had.
    const { collectible } = await confirmedCollectible(api, "After --fresh", "Anew", 1);
    expect(collectible.status).toBe("confirmed");
    await fresh.stop();
  });

  it("with RPC_URL and DATABASE_URL, --fresh refuses and removes nothing", async () => {
    const database = await createPostgresDatabase(inject("postgresUrl"), "e2e_rpc_url_fresh");
    const dir = dataFolder("e2e-rpc-url-database");
    try {
      // Stands in for the mnemonic the database's rows were made with: --fresh must not remove it.
      fs.mkdirSync(path.join(dir, "api"));
      fs.writeFileSync(path.join(dir, "api", "mnemonic"), "kept");
      const run = await runStart({
        dataDir: dir,
        args: ["--fresh"],
        env: {
          RPC_URL: chain.rpcUrl,
          CHAIN_ID: "31337",
          DEPLOYMENTS_DIR: deploymentsDir,
          DATABASE_URL: database.url,
        },
        timeoutMs: 60_000,
      });
      expect(run.code).toBe(1);
      expect(run.output).toContain("--fresh removes local files only");
      expect(fs.readFileSync(path.join(dir, "api", "mnemonic"), "utf8")).toBe("kept");
    } finally {
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("with RPC_URL, a second pnpm start on the same data folder is refused and the first keeps running", async () => {
    const env = { RPC_URL: chain.rpcUrl, CHAIN_ID: "31337", DEPLOYMENTS_DIR: deploymentsDir };
    const first = await startStack({ dataDir: sharedDataDir, env });
    const api = apiOf(first, first.printedKey() as string);
    const made = await api("POST", "/organizations", { name: "First stack" });
    expect(made.status).toBe(201);

    // Other ports, so only the data folder is shared: its embedded PostgreSQL would be the first's.
    const second = await runStart({ dataDir: sharedDataDir, env, timeoutMs: 60_000 });
    expect(second.code).toBe(1);
    expect(second.output).toContain(
      `another pnpm start (pid ${first.process.pid}) is running on ${sharedDataDir}`,
    );
    expect(second.output).toContain("Nothing was changed");
    expect(second.output).not.toContain("starting PostgreSQL");

    // The first still serves from its database, reads and writes alike.
    expect((await api("GET", `/organizations/${made.body.data.id}`)).body.data.name).toBe(
      "First stack",
    );
    expect((await api("POST", "/organizations", { name: "Still running" })).status).toBe(201);
    await first.stop();
  });
});
