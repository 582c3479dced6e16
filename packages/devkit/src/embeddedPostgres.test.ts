/**
 * The embedded PostgreSQL keeps its data across stops, and takes over its folder after a crash:
 * a killed server's stale postmaster.pid, or a server a killed stack left running.
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embeddedPostgres.ts";
import { freePort, killAllProcesses } from "./processes.ts";

const parent = mkdtempSync(path.join(tmpdir(), "devkit-postgres-"));
// The server runs as `postgres` when the tests run as root: it must reach its folder.
chmodSync(parent, 0o711);
afterAll(() => {
  killAllProcesses();
  rmSync(parent, { recursive: true, force: true });
});

async function query(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe("startEmbeddedPostgres", () => {
  it("keeps its data across a clean stop, a SIGKILL, and a server left running", async () => {
    const dir = path.join(parent, "kept");
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dir, port });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await query(first.url, "create table kept (value text); insert into kept values ('first')");
    await first.stop();

    const second = await startEmbeddedPostgres({ dir, port });
    await query(second.url, "insert into kept values ('second')");
    // A crash: the server dies at once and leaves its postmaster.pid.
    process.kill(second.process.pid, "SIGKILL");
    await second.process.exited;

    const third = await startEmbeddedPostgres({ dir, port });
    expect((await query(third.url, "select value from kept order by value")).length).toBe(2);
    // The stack that ran it dies; the server goes on: the next start stops it cleanly first.
    const lines: string[] = [];
    const fourth = await startEmbeddedPostgres({ dir, port, onLine: (line) => lines.push(line) });
    expect(lines.join("\n")).toMatch(/a server from an earlier run \(pid \d+\) holds/);
    expect(third.process.running()).toBe(false);
    expect(await query(fourth.url, "select value from kept order by value")).toEqual([
      { value: "first" },
      { value: "second" },
    ]);
    await fourth.stop();
  }, 120_000);

  it.runIf(process.getuid?.() === 0)(
    "as root, names a folder the postgres account cannot enter instead of failing in initdb",
    async () => {
      const closed = mkdtempSync(path.join(parent, "closed-"));
      chmodSync(closed, 0o700);
      await expect(
        startEmbeddedPostgres({ dir: path.join(closed, "postgres"), port: await freePort() }),
      ).rejects.toThrow(new RegExp(`cannot enter ${closed}`));
    },
  );
});
