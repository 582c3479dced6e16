/**
 * A crash of the whole local stack in the middle of a claim burst (every process of `pnpm start`
 * killed at once, as a power cut would) loses nothing: the next `pnpm start` brings back every
 * object and key, every accepted claim ends confirmed exactly once on the chain, and the API, the
 * indexer and the chain agree on the counts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import { createPostgresDatabase, type ThrowAwayDatabase } from "@collectibles/devkit/postgres";
import { createIndexerReader } from "@collectibles/indexer/reader";
import { createPublicClient, http } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { confirmed, confirmedCollectible } from "./confirmations.ts";
import { apiOf, killStacks, startStack } from "./localStack.ts";

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

/** The stack's settings on each database: PGlite (the default) or PostgreSQL (DATABASE_URL). */
async function settingsFor(kind: "pglite" | "postgres"): Promise<Record<string, string>> {
  if (kind === "pglite") return {};
  const server = process.env.TEST_DATABASE_URL;
  if (!server) throw new Error("TEST_DATABASE_URL is not set (bash scripts/ci-postgres.sh)");
  const database = await createPostgresDatabase(server, "e2e_crash");
  databases.push(database);
  return { DATABASE_URL: database.url };
}

describe.each(["pglite", "postgres"] as const)(
  "a crash of every process of pnpm start mid-burst, on %s",
  (kind) => {
    it("loses no accepted claim and mints none twice, and API, indexer and chain agree", async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-crash-"));
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
