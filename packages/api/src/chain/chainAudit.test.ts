/**
 * Never serving state the chain does not have: a chain that lost its last blocks (the local
 * node's state file is seconds behind after a crash) gets what it lacks sent again when the API
 * starts with CHAIN_AUDIT=1, and an API whose deployment is not on the chain refuses to send and
 * says so on /ready.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout } from "node:timers/promises";
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiProcessesOnChainPerFile, jsonOf } from "../test/apiProcess.ts";
import { until } from "../test/faults.ts";
import { testAppPerFile } from "../test/perFile.ts";

const API_KEY = "ck_test_chainauditchainauditchainaudit";
const TIMEOUT = 180_000;

const { start, call, createCollectible, stack } = apiProcessesOnChainPerFile({
  name: "audit",
  apiKey: API_KEY,
  settings(chain) {
    // Without the indexer, a mined claim counts as confirmed: the rolled-back blocks are the
    // chain's alone, as after a crash of the local node.
    const { INDEXER_URL: _indexer, ...chainEnv } = chain.env;
    return { ...chainEnv, CONFIRM_TIMEOUT_MS: "10000" };
  },
});

/** /ready's answer once it is 503 (within 60 s): its failed checks name the problem. */
function unready(t: ReturnType<typeof testAppPerFile>, what: string) {
  return until(
    what,
    async () => {
      const res = await t.call("GET", "/ready", { key: null });
      return res.status === 503 ? res : undefined;
    },
    { timeoutMs: 60_000 },
  );
}

/** An HTTP proxy in front of the indexer that counts the SQL reads asked through it. */
async function countingProxy(target: () => string) {
  let sqlReads = 0;
  const server = http.createServer((request, response) => {
    if (request.url?.startsWith("/sql")) sqlReads++;
    const upstream = http.request(
      new URL(request.url ?? "/", target()),
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sqlReads: () => sqlReads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The object at `urlPath` once it is no longer pending (the machine may be slow). */
function settled(url: string, urlPath: string) {
  return until(
    `${urlPath} settled`,
    async () => {
      const res = await jsonOf(await call(url, "GET", urlPath));
      return res.data.status === "pending" ? undefined : res.data;
    },
    { timeoutMs: 60_000 },
  );
}

const rpc = (method: string, params: unknown[] = []) =>
  stack.client.request({ method, params } as never) as Promise<unknown>;

describe("a local chain that lost its last blocks", { timeout: TIMEOUT }, () => {
  it("is not ready while a claim the chain lacks is confirmed, sends each again, and each ends confirmed once on-chain", async () => {
    let api = await start();
    const org = await jsonOf(await call(api.url, "POST", "/organizations", { name: "Audit" }));
    const created = await jsonOf(await createCollectible(api.url, org.data.id, "Kept", 10));
    const collectibleId: string = created.data.id;
    expect((await settled(api.url, `/collectibles/${collectibleId}`)).status).toBe("confirmed");
    // The node's last saved state: the collectible is there, the claims to come are not.
    const saved = await rpc("evm_snapshot");
    const claims: string[] = [];
    for (const email of ["a@audit.example", "b@audit.example", "c@audit.example"]) {
      const res = await jsonOf(
        await call(api.url, "POST", "/claims", { collectible_id: collectibleId, email }),
      );
      expect((await settled(api.url, `/claims/${res.data.id}`)).status).toBe("confirmed");
      claims.push(res.data.id);
    }
    await api.process.stop();
    // The node comes back from its state file without the claims' blocks.
    await rpc("evm_revert", [saved]);
    const claimedOf = () =>
      stack.client.readContract({
        address: stack.contract,
        abi: collectiblesAbi,
        functionName: "claimedCount",
        args: [uuidToBytes16(collectibleId)],
      });
    expect(await claimedOf()).toBe(0n);

    api = await start({ CHAIN_AUDIT: "1" });
    // Ready means its answers can be trusted: no claim the chain lacks is still `confirmed`.
    await until(
      "/ready answers 200",
      async () => ((await call(api.url, "GET", "/ready")).status === 200 ? true : undefined),
      { timeoutMs: 60_000 },
    );
    for (const id of claims) {
      const claim = await jsonOf(await call(api.url, "GET", `/claims/${id}`));
      const onChain = await stack.client.readContract({
        address: stack.contract,
        abi: collectiblesAbi,
        functionName: "isClaimed",
        args: [uuidToBytes16(collectibleId), uuidToBytes16(id)],
      });
      if (claim.data.status === "confirmed") expect(onChain).toBe(true);
    }
    await until(
      "the lost claims minted again",
      async () => ((await claimedOf()) === 3n ? true : undefined),
      { timeoutMs: 60_000 },
    );
    for (const id of claims) {
      expect((await settled(api.url, `/claims/${id}`)).status).toBe("confirmed");
    }
    const listed = await jsonOf(
      await call(api.url, "GET", `/claims?collectible_id=${collectibleId}`),
    );
    expect(listed.pagination.count).toBe(3);
    await api.process.stop();
  });
});

describe("a node restored from an older state while the API runs", { timeout: TIMEOUT }, () => {
  it("creates again the collectible the chain lost when a claim finds it missing, then mints the claim", async () => {
    const api = await start();
    const org = await jsonOf(await call(api.url, "POST", "/organizations", { name: "Older" }));
    const saved = await rpc("evm_snapshot");
    const created = await jsonOf(await createCollectible(api.url, org.data.id, "Lost", 5));
    expect((await settled(api.url, `/collectibles/${created.data.id}`)).status).toBe("confirmed");
    // The node goes back to before the collectible, as a node restored from its state file.
    await rpc("evm_revert", [saved]);

    const claim = await jsonOf(
      await call(api.url, "POST", "/claims", {
        collectible_id: created.data.id,
        email: "finds@audit.example",
      }),
    );
    expect((await settled(api.url, `/claims/${claim.data.id}`)).status).toBe("confirmed");
    const onChain = await stack.client.readContract({
      address: stack.contract,
      abi: collectiblesAbi,
      functionName: "claimedCount",
      args: [uuidToBytes16(created.data.id)],
    });
    expect(onChain).toBe(1n);
    await api.process.stop();
  });
});

describe("a chain without the deployment", { timeout: TIMEOUT }, () => {
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "api-audit-deployments-"));
  afterAll(() => fs.rmSync(elsewhere, { recursive: true, force: true }));
  beforeAll(() => {
    // The recorded deployment names an address where this chain has no code.
    const file = path.join(stack.deploymentsDir, "31337.json");
    const recorded = JSON.parse(fs.readFileSync(file, "utf8"));
    recorded.address = "0x000000000000000000000000000000000000dEaD";
    fs.writeFileSync(path.join(elsewhere, "31337.json"), JSON.stringify(recorded));
  });

  const t = testAppPerFile({
    env: {
      get RPC_URL() {
        return stack.rpcUrl;
      },
      CHAIN_ID: "31337",
      DEPLOYMENTS_DIR: elsewhere,
    },
  });

  it("answers /ready 503 naming the missing deployment, and sends nothing", async () => {
    const ready = await unready(t, "/ready to name the chain problem");
    const relayer = ready.body.error.details.find((c: { name: string }) => c.name === "relayer");
    expect(relayer.message).toMatch(
      /no code at contract 0x000000000000000000000000000000000000dEaD/,
    );
  });
});

describe("an indexer that follows another contract", { timeout: TIMEOUT }, () => {
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "api-other-contract-"));
  let indexer: Awaited<ReturnType<typeof countingProxy>>;
  afterAll(async () => {
    fs.rmSync(elsewhere, { recursive: true, force: true });
    await indexer?.close();
  });
  beforeAll(async () => {
    // A second deployment on the same chain: the API sends to it, the indexer follows the first
    // (an operator who deployed again and did not restart the indexer).
    await deployCollectibles({ rpcUrl: stack.rpcUrl, deploymentsDir: elsewhere });
    indexer = await countingProxy(() => stack.indexerUrl);
  }, 120_000);

  const t = testAppPerFile({
    env: {
      get RPC_URL() {
        return stack.rpcUrl;
      },
      get INDEXER_URL() {
        return indexer.url;
      },
      CHAIN_ID: "31337",
      DEPLOYMENTS_DIR: elsewhere,
      CONFIRM_TIMEOUT_MS: "0",
      READY_LAG_GRACE_SECONDS: "3",
    },
  });

  it("answers /ready 503 once a mined claim stays pending with the indexer past its block, and asks the indexer for it about once a second", async () => {
    const org = await t.call("POST", "/organizations", { json: { name: "Unindexed" } });
    const created = await t.call("POST", "/collectibles", {
      json: { organization_id: org.body.data.id, name: "Never indexed", total_count: 3 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    // A collectible takes nothing from the indexer; a claim takes its edition from it.
    await until("the collectible confirmed", async () => {
      const res = await t.call("GET", `/collectibles/${created.body.data.id}`);
      return res.body.data.status === "confirmed" ? true : undefined;
    });
    const claimed = await t.call("POST", "/claims", {
      json: { collectible_id: created.body.data.id, email: "unindexed@example.com" },
    });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(202);
    const ready = await unready(t, "/ready to say confirmations stopped");
    const sync = ready.body.error.details.find((c: { name: string }) => c.name === "sync");
    expect(sync.message).toMatch(
      /objects mined in block \d+, which the indexer has, still pending after \d+ s/,
    );
    const claim = await t.call("GET", `/claims/${claimed.body.data.id}`);
    expect(claim.body.data.status).toBe("pending");
    // Asked for in every round at the indexer's pace (40 ms), it cost 19 reads a second.
    const before = indexer.sqlReads();
    await setTimeout(5_000);
    expect((indexer.sqlReads() - before) / 5).toBeLessThan(5);
  });
});
