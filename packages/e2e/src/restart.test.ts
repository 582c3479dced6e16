/**
 * `pnpm start` keeps everything across Ctrl-C and a second start, then across a kill of every
 * process and a third start, and across a chain state file cut short, on non-default ports while
 * something else listens on the default ones, keeps its database where only its own account may
 * read it, and `pnpm start --fresh` wipes it and says what. A data folder from the PGlite release
 * is refused, naming --fresh, before anything starts.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { portAnswers } from "@collectibles/devkit/processes";
import { createIndexerReader } from "@collectibles/indexer/reader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmed, confirmedCollectible } from "./confirmations.ts";
import { apiOf, dataFolder, killStacks, runStart, startStack } from "./localStack.ts";

const dataDir = dataFolder("e2e-restart");
const pgliteDataDir = dataFolder("e2e-pglite-release");
const squatters: net.Server[] = [];

beforeAll(async () => {
  // Something else on the default ports (API, chain, indexer, PostgreSQL): pnpm start must not
  // need them.
  for (const port of [3000, 8545, 42069, 54320]) {
    const server = net.createServer();
    await new Promise<void>((resolve) => {
      server.once("error", () => resolve()); // already taken by someone else: as good
      server.listen(port, "127.0.0.1", () => resolve());
    });
    squatters.push(server);
  }
});
afterAll(() => {
  killStacks();
  for (const server of squatters) server.close();
  for (const dir of [dataDir, pgliteDataDir]) fs.rmSync(dir, { recursive: true, force: true });
});

/** The permission bits of `file` (stat, not lstat: as root it reads the server's files too). */
function modeOf(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

/** Every file and folder under `dir` that its group or anyone else may read. */
function readableByOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      let mode: number;
      try {
        mode = modeOf(file);
      } catch (error) {
        // The running server removed it (a temporary file) between the listing and the stat.
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw error;
      }
      if (mode & 0o044) found.push(`${file} (${mode.toString(8)})`);
      if (entry.isDirectory()) walk(file);
    }
  };
  walk(dir);
  return found;
}

/**
 * The chain's head and the block the transfer follower has taken in, from /ready's `sync`
 * check, once `settled` holds of them (within 30 s).
 */
async function holdersSync(
  api: ReturnType<typeof apiOf>,
  settled: (sync: { head: number; followed: number }) => boolean = () => true,
) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await api("GET", "/ready");
    const message: string = ready.body.data.checks.find(
      (check: { name: string }) => check.name === "sync",
    )?.message;
    const head = Number(/chain head (\d+)/.exec(message)?.[1]);
    const followed = Number(/holders followed to (\d+)/.exec(message)?.[1]);
    if (settled({ head, followed })) return { head, followed };
    if (Date.now() > deadline) throw new Error(`/ready's sync stayed at: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe("pnpm start on non-default ports", () => {
  it("keeps every object, key and wallet across Ctrl-C, a kill of the whole stack and more starts; --fresh wipes them", async () => {
    const first = await startStack({ dataDir, viaPnpm: true });
    expect(first.lines.join("\n")).toContain("starting fresh");
    // The database, its superuser's password and its URL: the server's account's alone.
    const postgres = path.join(dataDir, "postgres");
    expect(modeOf(postgres).toString(8)).toBe("700");
    expect(modeOf(path.join(postgres, "password")).toString(8)).toBe("600");
    expect(modeOf(path.join(postgres, "url")).toString(8)).toBe("600");
    expect(readableByOthers(postgres)).toEqual([]);
    const key = first.printedKey();
    expect(key).toBeDefined();
    let api = apiOf(first, key as string);
    const { org, collectible } = await confirmedCollectible(api, "Keeps", "Kept", 5);
    const user = (await api("POST", "/users", { organization_id: org.id, email: "k@e2e.example" }))
      .body.data;
    const claim = await api("POST", "/claims", {
      collectible_id: collectible.id,
      holder_id: user.id,
    });
    await confirmed(api, `/claims/${claim.body.data.id}`);
    // Ctrl-C in the terminal of `pnpm start` (SIGINT to all of it): a clean stop, exit 0, and no
    // pnpm complaint about it.
    expect(await first.ctrlC()).toEqual({ code: 0, signal: null });
    expect(first.lines.join("\n")).not.toMatch(/ELIFECYCLE|ERR_PNPM|Command failed/);
    expect(first.lines.join("\n")).toContain("[start] chain stopped");

    const second = await startStack({ dataDir });
    const said = second.lines.join("\n");
    expect(said).toContain("resuming the local chain and data");
    expect(said).not.toContain("did not stop cleanly");
    expect(second.printedKey()).toBeUndefined();
    api = apiOf(second, key as string);
    expect((await api("GET", `/organizations/${org.id}`)).body.data.wallet_address).toBe(
      org.wallet_address,
    );
    expect((await api("GET", `/users/${user.id}`)).body.data.wallet_address).toBe(
      user.wallet_address,
    );
    expect((await api("GET", `/claims/${claim.body.data.id}`)).body.data).toMatchObject({
      status: "confirmed",
      edition: 1,
    });
    const again = await api("POST", "/claims", {
      collectible_id: collectible.id,
      email: "second@e2e.example",
    });
    expect(await confirmed(api, `/claims/${again.body.data.id}`)).toMatchObject({ edition: 2 });
    expect((await api("GET", `/collectibles/${collectible.id}`)).body.data.claimed_count).toBe(2);
    // Killed this time (every process at once), on a chain this young: the chain file that the
    // next start loads is one anvil wrote while running, from a chain it had loaded itself.
    second.crash();
    await second.process.exited;

    const third = await startStack({ dataDir });
    expect(third.lines.join("\n")).toContain("the last run did not stop cleanly");
    api = apiOf(third, key as string);
    expect(await confirmed(api, `/claims/${again.body.data.id}`)).toMatchObject({ edition: 2 });
    const after = await api("POST", "/claims", {
      collectible_id: collectible.id,
      email: "third@e2e.example",
    });
    expect(await confirmed(api, `/claims/${after.body.data.id}`)).toMatchObject({ edition: 3 });
    expect(
      (await createIndexerReader({ url: third.indexerUrl }).getCollectible(collectible.id))
        ?.claimedCount,
    ).toBe(3n);
    // Once the transfer follower has the whole chain: read earlier, its position could be no
    // higher than the new chain's head below (it was once: 3, against a new chain of 3 blocks).
    const thirdSync = await holdersSync(api, (sync) => sync.followed >= sync.head);
    await third.stop();

    // The chain's state file cut short, as anvil's own in-place writes left it when a kill came
    // in the middle of one (before this release wrote it whole): it is set aside, a new chain
    // started, and the API sends it everything it recorded, each claim keeping its edition.
    const stateFile = path.join(dataDir, "chain", "state.json");
    const state = fs.readFileSync(stateFile, "utf8");
    fs.writeFileSync(stateFile, state.slice(0, state.length / 2));
    const fourth = await startStack({ dataDir });
    const told = fourth.lines.join("\n");
    expect(told).toContain(`Set aside as ${stateFile}.unreadable; starting a new chain`);
    expect(told).toContain("the chain lacks the recorded contract (its state was lost)");
    api = apiOf(fourth, key as string);
    const ids = [claim.body.data.id, again.body.data.id, after.body.data.id];
    for (const [i, id] of ids.entries()) {
      expect(await confirmed(api, `/claims/${id}`)).toMatchObject({ edition: i + 1 });
    }
    expect(
      (await createIndexerReader({ url: fourth.indexerUrl }).getCollectible(collectible.id))
        ?.claimedCount,
    ).toBe(3n);
    // The transfer follower's position came from the lost chain: it follows the new one down.
    const fourthSync = await holdersSync(api, (sync) => sync.followed <= sync.head);
    expect(fourthSync.head, "the new chain is shorter than the lost one").toBeLessThan(
      thirdSync.followed,
    );
    await fourth.stop();

    const fresh = await startStack({ dataDir, args: ["--fresh"] });
    const wiped = fresh.lines.join("\n");
    expect(wiped).toContain("--fresh: removed the local chain");
    expect(wiped).toContain(
      "--fresh: removed the database (the API's records, API keys and images; the indexer's " +
        `tables) (${path.join(dataDir, "postgres")})`,
    );
    expect(wiped).toContain(`--fresh: removed the wallet mnemonic (${path.join(dataDir, "api")})`);
    expect(fresh.printedKey()).not.toBe(key);
    expect((await apiOf(fresh, key as string)("GET", "/organizations")).status).toBe(401);
    await fresh.stop();
  });
});

describe("pnpm start on a data folder of an earlier release", () => {
  it("refuses a data folder from the PGlite release, naming --fresh", async () => {
    const leftover = path.join(pgliteDataDir, "api", "pglite");
    fs.mkdirSync(leftover, { recursive: true });
    const run = await runStart({ dataDir: pgliteDataDir, timeoutMs: 60_000 });
    expect(run.code).not.toBe(0);
    expect(run.output).toContain(leftover);
    expect(run.output).toContain("pnpm start --fresh");
    // At once, before starting anything: no chain, no database, nothing on its ports, and the
    // old release's data left as it was.
    expect(run.tookMs).toBeLessThan(30_000);
    expect(run.output).not.toContain("starting a local chain");
    for (const port of Object.values(run.ports)) expect(await portAnswers(port)).toBe(false);
    expect(fs.existsSync(path.join(pgliteDataDir, "postgres"))).toBe(false);
    expect(fs.existsSync(path.join(pgliteDataDir, "chain"))).toBe(false);
    expect(fs.existsSync(leftover)).toBe(true);
  });
});
