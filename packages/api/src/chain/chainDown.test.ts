/**
 * Chain or indexer unreachable: reads keep working, writes are accepted as pending, `/ready` says
 * which dependency is down (degraded, not unready), and everything completes once it answers
 * again. The burst tests cut the RPC or stop the indexer at random points of a burst of claims
 * (seeded: the seed is printed, `FAULT_SEED=<n>` replays it) and then check that the API, the
 * indexer and the chain agree on every claim, each minted once.
 */
import { createIndexerReader, MAX_IDS_PER_CALL } from "@collectibles/indexer/reader";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { MAX_BATCH_CLAIMS } from "../schemas/claims.ts";
import { type ApiClaim, claimedOnChain, expectAgreement } from "../test/agreement.ts";
import {
  type ChainStack,
  type CuttableProxy,
  startChainStack,
  startCuttableProxy,
} from "../test/chainStack.ts";
import { confirmedObjects } from "../test/confirmedObjects.ts";
import { burst, faultRandom, until as untilDeadline } from "../test/faults.ts";
import { type CallResult, startTestApp, type TestApp } from "../test/testApp.ts";

let stack: ChainStack;
let proxy: CuttableProxy;
/** The API's way to the indexer, cut while the indexer itself keeps running. */
let indexerProxy: CuttableProxy;
let t: TestApp;

beforeAll(async () => {
  stack = await startChainStack({ postgresUrl: inject("postgresUrl") });
  proxy = await startCuttableProxy(stack.rpcUrl);
  indexerProxy = await startCuttableProxy(stack.indexerUrl);
  t = await startTestApp({
    env: {
      ...stack.env,
      RPC_URL: proxy.url,
      INDEXER_URL: indexerProxy.url,
      CONFIRM_TIMEOUT_MS: "1500",
    },
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await proxy?.close();
  await indexerProxy?.close();
  await stack?.stop();
});

const until = <T>(what: string, check: () => Promise<T | undefined>) =>
  untilDeadline(what, check, { timeoutMs: 120_000 });

/** GET that must answer 200; the body. */
async function get(path: string) {
  const res = await t.call("GET", path);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  return res.body;
}

/**
 * POSTs `count` claims by email (`<prefix>-<i>@example.com`), 15 at once; the answers in order.
 * `afterAnswer` sees how many are answered and the answers so far.
 */
async function claimBurst(
  collectibleId: string,
  count: number,
  prefix: string,
  afterAnswer: (done: number, answers: CallResult[]) => void,
): Promise<CallResult[]> {
  const answers: CallResult[] = [];
  await burst(
    count,
    15,
    async (i) => {
      answers[i] = await t.call("POST", "/claims", {
        json: { collectible_id: collectibleId, email: `${prefix}-${i}@example.com` },
      });
    },
    (done) => afterAnswer(done, answers),
  );
  return answers;
}

const checksOf = (ready: CallResult) =>
  Object.fromEntries(
    ready.body.data.checks.map((c: { name: string; status: string }) => [c.name, c.status]),
  );

/**
 * A burst of `count` claims with a fault in it: a confirmed collectible with room to spare, and
 * the answers after which the fault begins and ends (the end may be the last answer: the burst
 * then ends during the fault), drawn from a seeded random source that `label` names.
 */
async function faultyBurstPlan(label: string, collectibleName: string, count: number) {
  const random = faultRandom(label);
  const org = (await t.call("POST", "/organizations", { json: { name: label } })).body.data;
  const collectibleId = await confirmedObjects(t, org).confirmedCollectible(collectibleName, {
    totalCount: count + 50,
  });
  const [beginAfter, endAfter] = random.distinctInts(2, 5, count);
  return { seed: random.seed, collectibleId, beginAfter, endAfter };
}

function expectEveryClaimAccepted(answers: CallResult[], context: string) {
  for (const [i, answer] of answers.entries()) {
    expect([201, 202], `claim ${i} ${JSON.stringify(answer.body)} ${context}`).toContain(
      answer.status,
    );
  }
}

/**
 * After the fault: the API, the indexer and the chain agree on the burst's claims, each minted
 * once, every accepted claim is among them, and the API is ready again.
 */
async function expectBurstSettled(
  collectibleId: string,
  count: number,
  answers: CallResult[],
  context: string,
) {
  const claims: ApiClaim[] = await expectAgreement(stack, get, collectibleId, count, { context });
  const listed = new Set(claims.map((claim) => claim.id));
  for (const answer of answers) expect(listed.has(answer.body.data.id), context).toBe(true);
  expect((await t.call("GET", "/ready", { key: null })).body.data.status).toBe("ready");
}

it("accepts claims as pending while the chain is down, stays readable, and completes them when it returns", async () => {
  const org = (await t.call("POST", "/organizations", { json: { name: "Offline" } })).body.data;
  const before = await t.call("POST", "/collectibles", {
    json: { organization_id: org.id, name: "Before", total_count: 5 },
  });
  expect([201, 202]).toContain(before.status);
  await until("the first collectible confirmed", async () => {
    const res = await t.call("GET", `/collectibles/${before.body.data.id}`);
    return res.body.data.status === "confirmed" ? res : undefined;
  });

  await proxy.cut();

  const claim = await t.call("POST", "/claims", {
    json: { collectible_id: before.body.data.id, email: "offline@example.com" },
  });
  expect(claim.status).toBe(202);
  expect(claim.body.data).toMatchObject({ status: "pending", is_active: false, edition: null });
  const during = await t.call("POST", "/collectibles", {
    json: { organization_id: org.id, name: "During", total_count: 2 },
  });
  expect(during.status).toBe(202);
  expect(during.body.data.status).toBe("pending");

  const read = await t.call("GET", `/claims/${claim.body.data.id}`);
  expect(read.status).toBe(200);
  expect(read.body.data.status).toBe("pending");
  expect((await t.call("GET", "/collectibles")).status).toBe(200);
  const ready = await t.call("GET", "/ready", { key: null });
  expect(ready.status).toBe(200);
  expect(ready.body.data.status).toBe("degraded");
  // Unready only once the chain stays away for READY_LAG_GRACE_SECONDS (30 s by default).
  expect(checksOf(ready)).toEqual({
    database: "up",
    chain: "down",
    indexer: "up",
    relayer: "up",
    finality: "up",
    sync: "up",
  });

  await proxy.restore();

  await until("the claim confirmed", async () => {
    const res = await t.call("GET", `/claims/${claim.body.data.id}`);
    return res.body.data.status === "confirmed" ? res : undefined;
  });
  await until("the collectible confirmed", async () => {
    const res = await t.call("GET", `/collectibles/${during.body.data.id}`);
    return res.body.data.status === "confirmed" ? res : undefined;
  });
  const claimOfNew = await t.call("POST", "/claims", {
    json: { collectible_id: during.body.data.id, email: "back@example.com" },
  });
  expect([201, 202]).toContain(claimOfNew.status);
  await until("a claim of the new collectible confirmed", async () => {
    const res = await t.call("GET", `/claims/${claimOfNew.body.data.id}`);
    return res.body.data.status === "confirmed" ? res : undefined;
  });
  const readyAgain = await t.call("GET", "/ready", { key: null });
  expect(readyAgain.body.data.status).toBe("ready");
}, 120_000);

it("loses no claim of a burst whose RPC goes away midway: the backlog drains, each claim minted once", async () => {
  const CLAIMS = 150;
  const plan = await faultyBurstPlan("RPC outage mid-burst", "Outage", CLAIMS);
  const { collectibleId, beginAfter: cutAfter, endAfter: restoreAfter } = plan;
  const context = `(seed ${plan.seed}: cut after ${cutAfter} answers, back after ${restoreAfter})`;
  let outage: Promise<void> = Promise.resolve();
  const answers = await claimBurst(collectibleId, CLAIMS, "outage", (done) => {
    if (done === cutAfter) outage = proxy.cut();
    if (done === restoreAfter) outage = outage.then(() => proxy.restore());
  });
  await outage;
  // Accepted, every one: the outage only delays them (201 before the cut, 202 during it).
  expectEveryClaimAccepted(answers, context);
  await expectBurstSettled(collectibleId, CLAIMS, answers, context);
}, 360_000);

it("keeps reads answering while the indexer restarts mid-burst, then every claim shows confirmed with its edition", async () => {
  const CLAIMS = 120;
  const plan = await faultyBurstPlan("indexer restart mid-burst", "Indexer restart", CLAIMS);
  const { collectibleId, beginAfter: stopAfter, endAfter: startAfter } = plan;
  const context = `(seed ${plan.seed}: indexer stopped after ${stopAfter} answers, started after ${startAfter})`;
  let outage: Promise<void> = Promise.resolve();
  let readsWhileDown: Promise<CallResult[]> | undefined;
  const answers = await claimBurst(collectibleId, CLAIMS, "reindex", (done, answered) => {
    if (done === stopAfter) {
      outage = stack.stopIndexer();
      // Reads while Ponder is gone: lists, single claims, the collectible and /ready.
      readsWhileDown = outage.then(() =>
        Promise.all([
          t.call("GET", `/claims?collectible_id=${collectibleId}&limit=100`),
          t.call("GET", `/claims/${answered.find(Boolean)?.body.data.id}`),
          t.call("GET", `/collectibles/${collectibleId}`),
          t.call("GET", "/ready", { key: null }),
        ]),
      );
    }
    if (done === startAfter) outage = outage.then(() => stack.startIndexer());
  });
  await outage;
  expectEveryClaimAccepted(answers, context);
  const [list, one, collectible, ready] = (await readsWhileDown) ?? [];
  expect(list?.status, context).toBe(200);
  expect(list?.body.pagination.count, context).toBeGreaterThanOrEqual(1);
  expect(one?.status, context).toBe(200);
  expect(collectible?.status, context).toBe(200);
  expect(collectible?.body.data.claimed_count, context).toBeLessThanOrEqual(CLAIMS);
  expect(ready?.status).toBe(200);
  expect(ready && checksOf(ready), context).toEqual({
    database: "up",
    chain: "up",
    indexer: "down",
    relayer: "up",
    finality: "up",
    // A short restart stays within READY_LAG_GRACE_SECONDS.
    sync: "up",
  });

  await expectBurstSettled(collectibleId, CLAIMS, answers, context);
}, 360_000);

it("confirms a backlog of more mined claims than one indexer read takes once the indexer is back", async () => {
  // Mined while the API cannot reach the indexer, which indexes them meanwhile: they wait for it
  // together, and the relayer must read their editions in parts (a backlog of 4,298 claims
  // after the chain audit resent them stayed pending for good, each round failing on the
  // reader's limit without a word).
  const CLAIMS = MAX_IDS_PER_CALL + 50;
  const org = (await t.call("POST", "/organizations", { json: { name: "Backlog" } })).body.data;
  const collectibleId = await confirmedObjects(t, org).confirmedCollectible("Backlog", {
    totalCount: CLAIMS,
  });
  await indexerProxy.cut();
  for (let from = 0; from < CLAIMS; from += MAX_BATCH_CLAIMS) {
    const items = Array.from({ length: Math.min(MAX_BATCH_CLAIMS, CLAIMS - from) }, (_, i) => ({
      collectible_id: collectibleId,
      email: `backlog-${from + i}@example.com`,
    }));
    const res = await t.call("POST", "/claims/batch", { json: { items } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(new Set(res.body.data.map((r: { status: string }) => r.status))).toEqual(
      new Set(["created"]),
    );
  }
  await until("every claim mined", async () =>
    (await claimedOnChain(stack, collectibleId)) === BigInt(CLAIMS) ? true : undefined,
  );
  const indexer = createIndexerReader({ url: stack.indexerUrl });
  const head = await stack.client.getBlockNumber();
  await until("the indexer at the chain's head", async () =>
    (await indexer.isIndexed(head)) ? true : undefined,
  );
  await indexerProxy.restore();
  await expectAgreement(stack, get, collectibleId, CLAIMS, {
    context: "(a backlog)",
    timeoutMs: 60_000,
  });
}, 360_000);
