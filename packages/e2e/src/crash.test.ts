/**
 * A crash of the whole local stack in the middle of a claim burst (every process of `pnpm start`
 * killed at once, as a power cut would) loses nothing: the next `pnpm start` brings back every
 * object and key, every accepted claim ends confirmed exactly once on the chain, and the API, the
 * indexer and the chain agree on the counts. So on the embedded PostgreSQL (the default) and on
 * a DATABASE_URL. A crash that spares the embedded PostgreSQL (left running, its parent gone)
 * loses nothing either: the next start stops that server cleanly and starts its own on the data.
 */
import fs from "node:fs";
import path from "node:path";
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import { createPostgresDatabase, type ThrowAwayDatabase } from "@collectibles/devkit/postgres";
import { portAnswers } from "@collectibles/devkit/processes";
import { createIndexerReader } from "@collectibles/indexer/reader";
import { createPublicClient, http } from "viem";
import { afterAll, describe, expect, inject, it } from "vitest";
import { confirmed, confirmedCollectible } from "./confirmations.ts";
import {
  apiOf,
  dataFolder,
  freePorts,
  killStacks,
  POSTGRES_PROCESSES,
  startStack,
} from "./localStack.ts";

const CLAIMS = 80;
const IN_FLIGHT = 8;
/** The crash comes once this many claims were answered. */
const CRASH_AFTER = 30;

const folders: string[] = [];
const databases: ThrowAwayDatabase[] = [];
afterAll(async () => {
  killStacks();
  for (const database of databases) await database.drop();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

type Database = "the embedded PostgreSQL" | "DATABASE_URL";

/**
 * The stack's settings on each database: its own PostgreSQL in the data folder (the default),
 * or a database on the run's server (DATABASE_URL), which the crash does not touch.
 */
async function settingsFor(kind: Database): Promise<Record<string, string>> {
  if (kind === "the embedded PostgreSQL") return {};
  const database = await createPostgresDatabase(inject("postgresUrl"), "e2e_crash");
  databases.push(database);
  return { DATABASE_URL: database.url };
}

describe.each(["the embedded PostgreSQL", "DATABASE_URL"] as const)(
  "a crash of every process of pnpm start mid-burst, on %s",
  (kind) => {
    it("loses no accepted claim and mints none twice, and API, indexer and chain agree", async () => {
      const dataDir = dataFolder("e2e-crash");
      folders.push(dataDir);
      // POST answers 202 at once, so the burst runs ahead of the chain when the crash comes.
      const env = { CONFIRM_TIMEOUT_MS: "0", ...(await settingsFor(kind)) };
      const first = await startStack({ dataDir, env });
      const key = first.printedKey() as string;
      let api = apiOf(first, key);
      const survivor = await confirmedCollectible(api, "Crash", "Survivor", CLAIMS);
      const collectibleId: string = survivor.collectible.id;

      const accepted: string[] = [];
      let answered = 0;
      let next = 0;
      const worker = async () => {
        while (next < CLAIMS) {
          const i = next++;
          const res = await api("POST", "/claims", {
            collectible_id: collectibleId,
            email: `holder-${i}@e2e.example`,
          }).catch(() => undefined);
          if (res && (res.status === 201 || res.status === 202)) accepted.push(res.body.data.id);
          if (++answered === CRASH_AFTER) first.crash();
          if (!res) return; // the stack is gone
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      expect(accepted.length).toBeGreaterThanOrEqual(CRASH_AFTER - IN_FLIGHT);
      await first.process.exited;

      const second = await startStack({ dataDir, env });
      expect(second.lines.join("\n")).toContain("the last run did not stop cleanly");
      api = apiOf(second, key);
      for (const id of accepted) await confirmed(api, `/claims/${id}`);

      const chain = createPublicClient({ transport: http(second.rpcUrl) });
      const contract = JSON.parse(
        fs.readFileSync(path.join(dataDir, "deployments", "31337.json"), "utf8"),
      ).address;
      const onChain = await chain.readContract({
        address: contract,
        abi: collectiblesAbi,
        functionName: "claimedCount",
        args: [uuidToBytes16(collectibleId)],
      });
      const listed = await api("GET", `/claims?collectible_id=${collectibleId}&limit=100`);
      const confirmedIds = listed.body.data
        .filter((c: { status: string }) => c.status === "confirmed")
        .map((c: { id: string }) => c.id);
      // Every accepted claim is there once; a claim accepted as the crash came may be too.
      expect(confirmedIds).toEqual(expect.arrayContaining(accepted));
      expect(Number(onChain)).toBe(confirmedIds.length);
      const collectible = (await api("GET", `/collectibles/${collectibleId}`)).body.data;
      expect(collectible.claimed_count).toBe(Number(onChain));
      const indexer = createIndexerReader({ url: second.indexerUrl });
      expect((await indexer.getCollectible(collectibleId))?.claimedCount).toBe(onChain);
      await second.stop();
    });
  },
);

describe("pnpm start after a crash that spared PostgreSQL", () => {
  it("a start after every process but PostgreSQL was killed stops the old server and resumes with every object", async () => {
    const dataDir = dataFolder("e2e-orphan");
    folders.push(dataDir);
    // The same ports again: the old server still holds the database's.
    const ports = await freePorts();
    const first = await startStack({ dataDir, ports });
    const key = first.printedKey() as string;
    let api = apiOf(first, key);
    const { org, collectible } = await confirmedCollectible(api, "Orphaned", "Outlives", 3);
    const claim = await api("POST", "/claims", {
      collectible_id: collectible.id,
      email: "orphan@e2e.example",
    });
    await confirmed(api, `/claims/${claim.body.data.id}`);
    const server = first.pidOf(POSTGRES_PROCESSES);
    expect(server).toBeDefined();

    first.crash({ spare: POSTGRES_PROCESSES });
    await first.process.exited;
    // Its parent is gone, the server is not: it still serves the data folder on its port.
    expect(() => process.kill(server as number, 0)).not.toThrow();
    expect(await portAnswers(ports.database)).toBe(true);

    const second = await startStack({ dataDir, ports });
    const said = second.lines.join("\n");
    expect(said).toContain("the last run did not stop cleanly");
    expect(said).toMatch(
      new RegExp(`a server from an earlier run \\(pid ${server}\\) holds .*: stopping it`),
    );
    api = apiOf(second, key);
    expect((await api("GET", `/organizations/${org.id}`)).body.data.wallet_address).toBe(
      org.wallet_address,
    );
    // The chain may have lost its last second (anvil saves its state every second): what it
    // lacks is sent again, so the objects end confirmed as they were, not at once.
    expect(await confirmed(api, `/claims/${claim.body.data.id}`)).toMatchObject({ edition: 1 });
    expect(await confirmed(api, `/collectibles/${collectible.id}`)).toMatchObject({
      claimed_count: 1,
    });
    const indexer = createIndexerReader({ url: second.indexerUrl });
    expect((await indexer.getCollectible(collectible.id))?.claimedCount).toBe(1n);
    await second.stop();
    // The old server was stopped, not left beside the new one.
    expect(() => process.kill(server as number, 0)).toThrow();
  });
});
