/**
 * Nothing accepted is lost, nothing is minted twice: the real API entry runs as a child process,
 * is killed with SIGKILL while a burst of claims is pending, and is started again. Every accepted
 * claim ends confirmed, once, and the chain holds exactly the claims the API knows.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { collectiblesAbi, tokenIdOf, uuidToBytes16 } from "@collectibles/contracts";
import { type Address, erc1155Abi } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ChainStack, startChainStack } from "../test/chainStack.ts";
import { TEST_MNEMONIC } from "../test/constants.ts";
import { createPostgresDatabase, testDriver } from "../test/testDatabase.ts";

const API_KEY = "ck_test_crashrecoverycrashrecovery0123";
const apiRoot = path.resolve(import.meta.dirname, "../..");

let stack: ChainStack;
let dataDir: string;
let dropDatabase: (() => Promise<void>) | undefined;
let env: Record<string, string>;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  stack = await startChainStack();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-crash-"));
  env = {
    ...stack.env,
    NODE_ENV: "test",
    LOG_LEVEL: "warn",
    PORT: "0",
    DATA_DIR: dataDir,
    API_KEY,
    WALLET_MNEMONIC: TEST_MNEMONIC,
    // Answer 202 at once: the burst is accepted long before it is mined.
    CONFIRM_TIMEOUT_MS: "0",
    RELAYER_BATCH_SIZE: "25",
    RELAYER_MAX_IN_FLIGHT: "2",
  };
  if (testDriver() === "postgres") {
    const database = await createPostgresDatabase();
    env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await stack?.stop();
  await dropDatabase?.();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `src/index.ts` and resolves with its base URL once it listens. */
async function startApi(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
    cwd: apiRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.on("exit", () => children.delete(child));
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`API did not start:\n${output}`)), 180_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`API exited (${code}):\n${output}`));
    });
  });
  return { url, child };
}

function call(url: string, method: string, urlPath: string, json?: unknown) {
  return fetch(url + urlPath, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}`,
      ...(json ? { "content-type": "application/json" } : {}),
    },
    body: json ? JSON.stringify(json) : undefined,
  });
}

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
const jsonOf = (res: Response): Promise<any> => res.json();

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 180_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it("every claim accepted before a SIGKILL is confirmed exactly once after a restart", async () => {
  const first = await startApi();
  const org = await jsonOf(await call(first.url, "POST", "/organizations", { name: "Crash" }));
  const created = await call(first.url, "POST", "/collectibles", {
    organization_id: org.data.id,
    name: "Survivor",
    total_count: 1000,
  });
  expect([201, 202]).toContain(created.status);
  const collectibleId: string = (await jsonOf(created)).data.id;
  await until("the collectible confirmed", async () => {
    const res = await jsonOf(await call(first.url, "GET", `/collectibles/${collectibleId}`));
    return res.data.status === "confirmed" ? true : undefined;
  });

  // A burst of 300 claims; the API is killed once 150 have been accepted.
  const accepted = new Set<string>();
  let killed = false;
  const burst = Array.from({ length: 300 }, async (_, i) => {
    try {
      const res = await call(first.url, "POST", "/claims", {
        collectible_id: collectibleId,
        email: `crash-${i}@example.com`,
      });
      if (res.status === 201 || res.status === 202) accepted.add((await jsonOf(res)).data.id);
      else await res.arrayBuffer();
    } catch {
      // The process died with this request in flight: it was never accepted.
    }
    if (!killed && accepted.size >= 150) {
      killed = true;
      first.child.kill("SIGKILL");
    }
  });
  await Promise.all(burst);
  if (!killed) first.child.kill("SIGKILL");
  expect(accepted.size).toBeGreaterThanOrEqual(150);
  const mintedAtKill = await stack.client.readContract({
    address: stack.contract,
    abi: collectiblesAbi,
    functionName: "claimedCount",
    args: [uuidToBytes16(collectibleId)],
  });
  // The kill really left accepted claims unminted (else this test would prove nothing).
  expect(mintedAtKill).toBeLessThan(BigInt(accepted.size));

  const second = await startApi();
  type Row = { id: string; status: string; minted_to: Address; token_id: string };
  const all = await until("every accepted claim confirmed", async () => {
    const rows: Row[] = [];
    for (let page = 1; ; page++) {
      const res = await jsonOf(
        await call(
          second.url,
          "GET",
          `/claims?collectible_id=${collectibleId}&limit=100&page=${page}`,
        ),
      );
      rows.push(...res.data);
      if (page >= res.pagination.pages) break;
    }
    return rows.every((row) => row.status === "confirmed") ? rows : undefined;
  });
  const ids = new Set(all.map((row) => row.id));
  for (const id of accepted) expect(ids.has(id), `accepted claim ${id}`).toBe(true);

  // None doubled, none extra: the chain holds exactly the API's claims, each once.
  const onChain = await stack.client.readContract({
    address: stack.contract,
    abi: collectiblesAbi,
    functionName: "claimedCount",
    args: [uuidToBytes16(collectibleId)],
  });
  expect(onChain).toBe(BigInt(all.length));
  const balances = await stack.client.readContract({
    address: stack.contract,
    abi: erc1155Abi,
    functionName: "balanceOfBatch",
    args: [all.map((row) => row.minted_to), all.map((row) => tokenIdOf(collectibleId, row.id))],
  });
  expect(balances.every((balance) => balance === 1n)).toBe(true);
  second.child.kill("SIGTERM");
}, 480_000);
