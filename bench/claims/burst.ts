/**
 * The burst: BENCH_CLAIMS `POST /claims` by email (the API creates each holder),
 * BENCH_CLAIM_CONNECTIONS at once over keep-alive HTTP, while the indexer's SQL route is polled
 * every BENCH_CLAIM_POLL_MS for the collectible's newly indexed claims (by edition, so each poll
 * returns only new rows) and the contract's `claimedCount` for the mined curve; at the end,
 * GET /claims is paged until the API shows every claim confirmed.
 */
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import { and, asc, claim, createClient, eq, schema, sql } from "@collectibles/indexer/client";
import { call, callJson } from "../lib/apiProcess.ts";
import type { StackSampler } from "../lib/stackMemory.ts";
import { type Percentiles, percentiles } from "../lib/stats.ts";
import { CLAIMS, CONNECTIONS, log, now, POLL_MS, STALL_MS, sleep } from "./config.ts";
import type { viem } from "./viem.ts";

type Hex = `0x${string}`;

/** The burst stops (and fails) after this many answers other than 201/202. */
const MAX_REJECTED = 50;

interface ClaimRecord {
  sent: number;
  answered: number;
  status: number;
  id?: string;
  indexed?: number;
}

export interface BurstResult {
  claims: number;
  connections: number;
  accepted: number;
  rejected: { status: number; body: string }[];
  acceptMs: Percentiles;
  confirmMs: Percentiles;
  /** From the first POST sent to the last claim seen indexed. */
  windowMs: number;
  confirmedPerSecond: number;
  acceptedPerSecond: number;
  /** Since the first POST: when the last POST was answered, mined, indexed, listed confirmed. */
  timelineMs: {
    allAccepted: number;
    allMined: number;
    allIndexed: number;
    apiAllConfirmed: number;
  };
  /** Since the first POST, when every further 10 % of the claims was accepted / mined / indexed. */
  curves: { accepted: number[]; mined: number[]; indexed: number[] };
  polls: number;
}

export async function burst(
  apiUrl: string,
  indexerUrl: string,
  chainClient: ReturnType<typeof viem.createPublicClient>,
  contract: Hex,
  collectibleId: string,
  memory: StackSampler,
): Promise<BurstResult> {
  const { db } = createClient(`${indexerUrl}/sql`, { schema });
  const records: ClaimRecord[] = [];
  const byId = new Map<string, ClaimRecord>();
  /** Claims the indexer showed before their POST was answered (id -> when seen). */
  const seenEarly = new Map<string, number>();
  const rejected: { status: number; body: string }[] = [];
  let answered = 0;
  let indexed = 0;
  let mined = 0;
  const tenth = Math.max(1, Math.floor(CLAIMS / 10));
  const curves = { accepted: [] as number[], mined: [] as number[], indexed: [] as number[] };
  const milestone = (curve: number[], count: number, at: number) => {
    while (curve.length < 10 && count >= tenth * (curve.length + 1)) curve.push(at);
  };
  let lastProgress = now();
  let lastLogged = { answered: 0, indexed: 0 };
  const progress = (force = false) => {
    const step = 500;
    if (
      force ||
      Math.floor(answered / step) > Math.floor(lastLogged.answered / step) ||
      Math.floor(indexed / step) > Math.floor(lastLogged.indexed / step)
    ) {
      lastLogged = { answered, indexed };
      log(
        `burst ${((now() - t0) / 1000).toFixed(1)} s: accepted ${answered - rejected.length}/${CLAIMS}` +
          `${rejected.length ? ` (${rejected.length} rejected)` : ""}, mined ${mined}, indexed ${indexed}`,
      );
    }
  };

  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= CLAIMS) return;
      const record: ClaimRecord = { sent: now(), answered: 0, status: 0 };
      records.push(record);
      let response: { status: number; body: string };
      try {
        response = await call(apiUrl, "POST", "/claims", {
          collectible_id: collectibleId,
          email: `holder-${i}@bench.example`,
        });
      } catch (error) {
        response = { status: 0, body: (error as Error).message };
      }
      record.answered = now();
      record.status = response.status;
      answered++;
      lastProgress = record.answered;
      if (response.status === 201 || response.status === 202) {
        const id = (JSON.parse(response.body) as { data: { id: string } }).data.id;
        record.id = id;
        byId.set(id, record);
        const early = seenEarly.get(id);
        if (early !== undefined) {
          record.indexed = early;
          seenEarly.delete(id);
        }
      } else {
        rejected.push({ status: response.status, body: response.body.slice(0, 300) });
        if (rejected.length === 1) log(`first rejected claim: ${response.status} ${response.body}`);
      }
      milestone(curves.accepted, answered - rejected.length, record.answered - t0);
      progress();
    }
  };

  /** Editions 1..contiguous are all seen; each poll asks only for what lies above. */
  let contiguous = 0;
  const editions = new Set<number>();
  let polls = 0;
  const poll = async () => {
    const rows = await db
      .select({ id: claim.id, edition: claim.edition })
      .from(claim)
      .where(and(eq(claim.collectibleId, collectibleId), sql`${claim.edition} > ${contiguous}`))
      .orderBy(asc(claim.edition))
      .limit(2000);
    const seenAt = now();
    polls++;
    for (const row of rows) {
      const edition = Number(row.edition);
      if (editions.has(edition)) continue;
      editions.add(edition);
      indexed++;
      const record = byId.get(row.id);
      if (record) record.indexed = seenAt;
      else seenEarly.set(row.id, seenAt);
    }
    while (editions.has(contiguous + 1)) contiguous++;
    if (rows.length > 0) lastProgress = seenAt;
    milestone(curves.indexed, indexed, seenAt - t0);
    const onChain = await chainClient.readContract({
      address: contract,
      abi: collectiblesAbi,
      functionName: "claimedCount",
      args: [uuidToBytes16(collectibleId)],
    });
    mined = Number(onChain);
    milestone(curves.mined, mined, now() - t0);
  };

  memory.mark("burst");
  const t0 = now();
  const workers = Promise.all(Array.from({ length: CONNECTIONS }, worker));
  let workersDone = false;
  workers.then(() => {
    workersDone = true;
  });
  let allMined = 0;
  for (;;) {
    const started = now();
    await poll();
    if (mined >= CLAIMS && allMined === 0) allMined = now() - t0;
    const accepted = answered - rejected.length;
    if (workersDone && indexed >= accepted) break;
    // A rejected claim invalidates the measurement: stop early when they keep coming.
    if (rejected.length >= MAX_REJECTED) {
      next = CLAIMS;
      await workers;
      throw new Error(
        `${rejected.length} claims rejected, e.g. ${rejected[0]?.status} ${rejected[0]?.body}`,
      );
    }
    if (now() - lastProgress > STALL_MS) {
      progress(true);
      throw new Error(`no claim accepted or indexed for ${STALL_MS / 1000} s`);
    }
    progress();
    await sleep(Math.max(0, POLL_MS - (now() - started)));
  }
  await workers;
  const lastIndexed = Math.max(...records.map((r) => r.indexed ?? 0));
  memory.mark("after burst");
  progress(true);
  const accepted = records.filter((r) => r.id !== undefined);
  const missing = accepted.filter((r) => r.indexed === undefined).length;
  if (missing > 0) throw new Error(`${missing} accepted claims never seen indexed`);

  // What a client sees: page through GET /claims until every claim reads confirmed.
  let apiAllConfirmed = 0;
  for (let pass = 1; ; pass++) {
    let confirmed = 0;
    let total = 0;
    for (let page = 1; ; page++) {
      const { json } = await callJson<{
        data: { status: string }[];
        pagination: { pages: number; count: number };
      }>(apiUrl, "GET", `/claims?collectible_id=${collectibleId}&limit=100&page=${page}`);
      confirmed += json.data.filter((c) => c.status === "confirmed").length;
      total = json.pagination.count;
      if (page >= json.pagination.pages) break;
    }
    if (confirmed === accepted.length && total === accepted.length) {
      apiAllConfirmed = now() - t0;
      break;
    }
    if (pass % 10 === 0) log(`GET /claims: ${confirmed}/${accepted.length} confirmed`);
    if (now() - t0 - lastIndexed > STALL_MS)
      throw new Error(`GET /claims shows ${confirmed}/${accepted.length} confirmed`);
    await sleep(200);
  }

  const windowMs = lastIndexed - t0;
  const lastAnswered = Math.max(...records.map((r) => r.answered));
  return {
    claims: CLAIMS,
    connections: CONNECTIONS,
    accepted: accepted.length,
    rejected: rejected.slice(0, 5),
    acceptMs: percentiles(accepted.map((r) => r.answered - r.sent)),
    confirmMs: percentiles(accepted.map((r) => (r.indexed as number) - r.sent)),
    windowMs: Math.round(windowMs),
    confirmedPerSecond: accepted.length / (windowMs / 1000),
    acceptedPerSecond: accepted.length / ((lastAnswered - t0) / 1000),
    timelineMs: {
      allAccepted: Math.round(lastAnswered - t0),
      allMined: Math.round(allMined),
      allIndexed: Math.round(windowMs),
      apiAllConfirmed: Math.round(apiAllConfirmed),
    },
    curves: {
      accepted: curves.accepted.map(Math.round),
      mined: curves.mined.map(Math.round),
      indexed: curves.indexed.map(Math.round),
    },
    polls,
  };
}
