/**
 * The documented production shape: one chain, one indexer (started first), then two API
 * processes (the real entry, `src/index.ts`) on one PostgreSQL, each with its own data folder as
 * on two machines. Both serve the same data and every upload; one sends transactions; when its
 * process is killed in the middle of a burst, the other takes over, and a client's retry with the
 * same Idempotency-Key on the survivor creates nothing twice.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { killAllProcesses } from "@collectibles/devkit/processes";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { claimedOnChain, expectAgreement } from "../test/agreement.ts";
import { type ApiProcess, apiCaller, jsonOf, startApiProcess } from "../test/apiProcess.ts";
import { type ChainStack, startChainStack } from "../test/chainStack.ts";
import { TEST_MNEMONIC } from "../test/constants.ts";
import { burst } from "../test/faults.ts";
import { createPostgresDatabase } from "../test/testDatabase.ts";

const API_KEY = "ck_test_productionshapeproductionsh01";
const CLAIMS = 60;

let stack: ChainStack;
let dropDatabase: (() => Promise<void>) | undefined;
const folders: string[] = [];
let env: Record<string, string>;

async function startApi(name: string): Promise<ApiProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `api-shape-${name}-`));
  folders.push(dataDir);
  return startApiProcess({ ...env, DATA_DIR: dataDir }, `API ${name}`);
}

const { request: call, call: callJson } = apiCaller(API_KEY);
const postJson = (url: string, urlPath: string, json: unknown, idempotencyKey?: string) =>
  callJson(url, "POST", urlPath, json, idempotencyKey);

describe("two API processes on one PostgreSQL", () => {
  let a: ApiProcess;
  let b: ApiProcess;

  beforeAll(async () => {
    stack = await startChainStack({ postgresUrl: inject("postgresUrl") });
    const database = await createPostgresDatabase();
    dropDatabase = database.drop;
    env = {
      ...stack.env,
      DATABASE_URL: database.url,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      PORT: "0",
      API_KEY,
      WALLET_MNEMONIC: TEST_MNEMONIC,
      CONFIRM_TIMEOUT_MS: "0",
      RATE_LIMIT_MAX: "1000000",
      RELAYER_BATCH_SIZE: "5",
      RELAYER_MAX_IN_FLIGHT: "1",
    };
    // A first, so that it is the one sending; B waits for the lock.
    a = await startApi("A");
    await a.relaying;
    b = await startApi("B");
  }, 600_000);

  afterAll(async () => {
    killAllProcesses();
    await stack?.stop();
    await dropDatabase?.();
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  it("serves an image uploaded through one process from the other", async () => {
    const png = await sharp({
      create: { width: 300, height: 200, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("name", "Shared Uploads");
    form.set("logo", new Blob([png]), "logo.png");
    const created = await call(b.url, "POST", "/organizations", { body: form });
    expect(created.status).toBe(201);
    const { logo } = (await jsonOf(created)).data;
    for (const url of Object.values(logo as Record<string, string>)) {
      const onA = await fetch(a.url + new URL(url).pathname);
      expect(onA.status, url).toBe(200);
    }
    const original = await fetch(a.url + new URL(logo.original).pathname);
    expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true);
  });

  it("keeps every claim when the sending process is killed mid-burst: the other takes over, retries create nothing twice, and counts agree", async () => {
    const org = (await jsonOf(await postJson(a.url, "/organizations", { name: "Two Processes" })))
      .data;
    const created = await postJson(a.url, "/collectibles", {
      organization_id: org.id,
      name: "Shared",
      total_count: CLAIMS,
    });
    expect([201, 202]).toContain(created.status);
    const collectibleId: string = (await jsonOf(created)).data.id;

    let aAlive = true;
    const unexpected: string[] = [];
    const retriedOnB = new Set<number>();
    await burst(
      CLAIMS,
      8,
      async (i) => {
        const json = { collectible_id: collectibleId, email: `shape-${i}@example.com` };
        const key = `shape-claim-${i}`;
        // Half the clients talk to A while it lives; a request it never answers goes to B.
        let res: Response;
        try {
          res = await postJson(i % 2 === 0 && aAlive ? a.url : b.url, "/claims", json, key);
        } catch {
          retriedOnB.add(i);
          res = await postJson(b.url, "/claims", json, key);
        }
        if (res.status !== 202 && res.status !== 201) {
          unexpected.push(`claim ${i}: ${res.status} ${await res.text()}`);
        }
      },
      (done) => {
        if (done !== CLAIMS / 3) return;
        aAlive = false;
        process.kill(a.process.pid, "SIGKILL");
      },
    );
    expect(unexpected).toEqual([]);
    await a.process.exited;
    await b.relaying;

    const get = async (urlPath: string) => {
      const res = await call(b.url, "GET", urlPath);
      if (res.status !== 200) throw new Error(`GET ${urlPath} answered ${res.status}`);
      return jsonOf(res);
    };
    const claims = await expectAgreement(stack, get, collectibleId, CLAIMS);
    expect(new Set(claims.map((claim) => claim.claimed_by_id)).size).toBe(CLAIMS);
    expect(await claimedOnChain(stack, collectibleId)).toBe(BigInt(CLAIMS));
    const collectible = (await get(`/collectibles/${collectibleId}`)).data;
    expect(collectible).toMatchObject({
      claimed_count: CLAIMS,
      pending_count: 0,
      available_count: 0,
    });
    console.info(`production shape: ${retriedOnB.size} claims sent again to B after A died`);
  }, 600_000);
});
