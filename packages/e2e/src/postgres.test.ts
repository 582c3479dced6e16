/**
 * `pnpm start` with DATABASE_URL (the API and the indexer on PostgreSQL) keeps everything across
 * Ctrl-C and a second start, starts no PostgreSQL of its own, and `--fresh` refuses rather than
 * orphan the database's rows. The database is made on the run's server (src/postgres.setup.ts:
 * TEST_DATABASE_URL's, or one from npm).
 */
import fs from "node:fs";
import path from "node:path";
import { createPostgresDatabase, type ThrowAwayDatabase } from "@collectibles/devkit/postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { confirmed, confirmedCollectible } from "./confirmations.ts";
import { apiOf, dataFolder, killStacks, startStack } from "./localStack.ts";

const dataDir = dataFolder("e2e-postgres");
let database: ThrowAwayDatabase;

beforeAll(async () => {
  database = await createPostgresDatabase(inject("postgresUrl"), "e2e_start");
});
afterAll(async () => {
  killStacks();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("pnpm start on PostgreSQL", () => {
  it("keeps every object and key across Ctrl-C and a second start; --fresh refuses", async () => {
    const env = { DATABASE_URL: database.url };
    const first = await startStack({ dataDir, env });
    expect(first.lines.join("\n")).not.toContain("starting PostgreSQL");
    expect(fs.existsSync(path.join(dataDir, "postgres"))).toBe(false);
    const key = first.printedKey() as string;
    let api = apiOf(first, key);
    const { org, collectible } = await confirmedCollectible(api, "On PostgreSQL", "Kept", 3);
    const collectibleId = collectible.id;
    const claim = await api("POST", "/claims", {
      collectible_id: collectibleId,
      email: "pg@e2e.example",
    });
    await confirmed(api, `/claims/${claim.body.data.id}`);
    await first.stop();

    const second = await startStack({ dataDir, env });
    expect(second.lines.join("\n")).toContain("resuming the local chain and data");
    api = apiOf(second, key);
    expect((await api("GET", `/organizations/${org.id}`)).body.data.wallet_address).toBe(
      org.wallet_address,
    );
    expect((await api("GET", `/claims/${claim.body.data.id}`)).body.data).toMatchObject({
      status: "confirmed",
      edition: 1,
    });
    expect((await api("GET", `/collectibles/${collectibleId}`)).body.data.claimed_count).toBe(1);
    await second.stop();

    await expect(startStack({ dataDir, env, args: ["--fresh"] })).rejects.toThrow(
      /--fresh removes local files only/,
    );
    expect(fs.existsSync(path.join(dataDir, "api"))).toBe(true);
  });
});
