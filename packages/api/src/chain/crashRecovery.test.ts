/**
 * Nothing accepted is lost, nothing is minted twice: the real API entry runs as a child process
 * and is killed with SIGKILL three times at random points of a burst of 500 claims (after a
 * random number of answers, plus a random delay), and started again each time. The client does
 * what a careful client does: a request whose connection died is sent again once the API is back.
 * In the end every one of the 500 holders has exactly one confirmed claim, every claim the client
 * saw accepted (201/202) is among them, and the API, the indexer and the chain agree, with no
 * token more on-chain. The fault points come from a seeded random source: the seed is printed,
 * `FAULT_SEED=<n>` replays it.
 */
import { expect, it } from "vitest";
import { claimedOnChain, expectAgreement } from "../test/agreement.ts";
import { type ApiProcess, apiProcessesOnChainPerFile, crash, jsonOf } from "../test/apiProcess.ts";
import { burst, faultRandom, until } from "../test/faults.ts";

const API_KEY = "ck_test_crashrecoverycrashrecovery0123";
const CLAIMS = 500;
const KILLS = 3;

const { start, call, createCollectible, stack } = apiProcessesOnChainPerFile({
  name: "crash",
  apiKey: API_KEY,
  settings: (chain) => ({
    ...chain.env,
    // Answer 202 at once: the burst is accepted long before it is mined.
    CONFIRM_TIMEOUT_MS: "0",
    // Small batches, one in flight: the relayer trails the burst, so a kill finds claims that
    // were accepted but not yet sent, and transactions sent but not yet recorded.
    RELAYER_BATCH_SIZE: "10",
    RELAYER_MAX_IN_FLIGHT: "1",
    RATE_LIMIT_MAX: "1000000",
  }),
});

it("every claim accepted across three SIGKILLs of a 500-claim burst is confirmed exactly once", async () => {
  const random = faultRandom("crash recovery");
  let api: Promise<ApiProcess> = start();
  const first = await api;
  const org = await jsonOf(await call(first.url, "POST", "/organizations", { name: "Crash" }));
  const created = await createCollectible(first.url, org.data.id, "Survivor", CLAIMS + 100);
  expect([201, 202]).toContain(created.status);
  const collectibleId: string = (await jsonOf(created)).data.id;
  await until("the collectible confirmed", async () => {
    const res = await jsonOf(await call(first.url, "GET", `/collectibles/${collectibleId}`));
    return res.data.status === "confirmed" ? true : undefined;
  });

  // Kill after a random number of answers (the last possible point: after the burst, while the
  // relayer drains it), each after a random delay of up to 300 ms.
  const killAfter = random.distinctInts(KILLS, 20, CLAIMS);
  const delays = killAfter.map(() => random.int(0, 300));
  const context = `(seed ${random.seed}: kills after ${killAfter.join(", ")} answers, +${delays.join(", ")} ms)`;

  const accepted = new Map<number, string>(); // claim number -> claim id, from a 201/202
  const retried = new Set<number>(); // claims whose connection died at least once
  const claimedBeforeAnswer = new Set<number>(); // a retry answered 409 already_claimed
  const unexpected: string[] = [];
  const unmintedAtKill: number[] = [];
  let kills = 0;
  let faults = Promise.resolve();

  /** SIGKILL, wait until the process is gone, start a new one on the same data. */
  const restart = async (old: ApiProcess): Promise<ApiProcess> => {
    await crash(old.process);
    kills++;
    unmintedAtKill.push(accepted.size - Number(await claimedOnChain(stack, collectibleId)));
    return start();
  };

  await burst(
    CLAIMS,
    32,
    async (i) => {
      const json = { collectible_id: collectibleId, email: `crash-${i}@example.com` };
      for (let attempt = 1; ; attempt++) {
        const { url } = await api;
        let res: Response;
        try {
          res = await call(url, "POST", "/claims", json);
        } catch {
          // The API died with this request in flight: send it again once it is back.
          retried.add(i);
          if (attempt > 20) {
            unexpected.push(`claim ${i}: no answer after ${attempt} attempts`);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        const body = await jsonOf(res).catch(() => null);
        if (res.status === 201 || res.status === 202) accepted.set(i, body.data.id);
        else if (res.status === 409 && body?.error?.code === "already_claimed" && retried.has(i)) {
          claimedBeforeAnswer.add(i);
        } else unexpected.push(`claim ${i}: ${res.status} ${JSON.stringify(body)}`);
        return;
      }
    },
    (done) => {
      const k = killAfter.indexOf(done);
      if (k === -1) return;
      faults = faults.then(async () => {
        await new Promise((resolve) => setTimeout(resolve, delays[k]));
        const old = await api;
        // Replaced in the same tick as the kill: a request failing from now on waits for it.
        api = restart(old);
        await api;
      });
    },
  );
  await faults;
  const last = await api;

  console.info(
    `crash recovery: ${kills} kills; unminted accepted claims at each kill: ${unmintedAtKill.join(", ")}; ` +
      `${retried.size} requests resent after a kill, ${claimedBeforeAnswer.size} of them found already claimed`,
  );
  expect(unexpected, context).toEqual([]);
  expect(kills, context).toBe(KILLS);
  // Every claim got an answer: accepted, or already claimed by an attempt the kill cut short.
  expect(accepted.size + claimedBeforeAnswer.size, context).toBe(CLAIMS);
  // The kills really left accepted claims unminted (else this test would prove little).
  expect(
    Math.max(...unmintedAtKill),
    `unminted at each kill ${unmintedAtKill} ${context}`,
  ).toBeGreaterThan(0);

  const get = async (urlPath: string) => {
    const res = await call(last.url, "GET", urlPath);
    if (res.status !== 200) throw new Error(`GET ${urlPath} answered ${res.status}`);
    return jsonOf(res);
  };
  // One claim per holder: every accepted one, and the ones whose answer the kill swallowed.
  const claims = await expectAgreement(stack, get, collectibleId, CLAIMS, {
    context,
    timeoutMs: 300_000,
  });
  const ids = new Set(claims.map((claim) => claim.id));
  for (const [i, id] of accepted) expect(ids.has(id), `accepted claim ${i} ${context}`).toBe(true);
  expect(new Set(claims.map((claim) => claim.claimed_by_id)).size, context).toBe(CLAIMS);

  await last.process.stop();
}, 900_000);
