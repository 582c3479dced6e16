import pg from "pg";
import { describe, expect, it } from "vitest";
import { testAppPerFile } from "../test/perFile.ts";

const t = testAppPerFile({ env: { READ_CONCURRENCY: "2" } });

/** Statements of this database waiting for a lock (a read held up by the test's lock). */
async function waitingOnLocks(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
  );
  return rows[0]?.n ?? 0;
}

describe("a key's reads take turns (READ_CONCURRENCY)", () => {
  it("makes further reads wait while every turn is taken, and still answers writes", async () => {
    const created = await t.call("POST", "/organizations", { json: { name: "Patient" } });
    expect(created.status).toBe(201);
    const locker = new pg.Client({ connectionString: t.database.url });
    await locker.connect();
    try {
      // Two reads of users, held in PostgreSQL by the lock, take both turns.
      await locker.query("begin");
      await locker.query("lock table users in access exclusive mode");
      const heldReads = [t.call("GET", "/users"), t.call("GET", "/users")];
      while ((await waitingOnLocks(locker)) < 2) await new Promise((r) => setTimeout(r, 20));

      // A read of another table waits for a turn; a write is answered meanwhile.
      let waitingRead: number | undefined;
      const read = t.call("GET", "/organizations").then((res) => {
        waitingRead = res.status;
        return res;
      });
      const write = await t.call("POST", "/organizations", { json: { name: "Served" } });
      expect(write.status).toBe(201);
      await new Promise((r) => setTimeout(r, 300));
      expect(waitingRead).toBeUndefined();
      expect(await waitingOnLocks(locker)).toBeGreaterThanOrEqual(2);

      await locker.query("commit");
      const answers = await Promise.all([...heldReads, read]);
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
      const names = answers[2]?.body.data.map((org: { name: string }) => org.name);
      expect(names).toEqual(expect.arrayContaining(["Patient", "Served"]));
    } finally {
      await locker.query("rollback").catch(() => {});
      await locker.end();
    }
  });

  it("does not run a read whose client left while it waited for a turn", async () => {
    const lockUsers = new pg.Client({ connectionString: t.database.url });
    const lockCollectibles = new pg.Client({ connectionString: t.database.url });
    await Promise.all([lockUsers.connect(), lockCollectibles.connect()]);
    try {
      await lockUsers.query("begin");
      await lockUsers.query("lock table users in access exclusive mode");
      await lockCollectibles.query("begin");
      await lockCollectibles.query("lock table collectibles in access exclusive mode");
      // Two reads of users take both turns; a read of collectibles waits for one, then leaves.
      const heldReads = [t.call("GET", "/users"), t.call("GET", "/users")];
      while ((await waitingOnLocks(lockUsers)) < 2) await new Promise((r) => setTimeout(r, 20));
      const leaving = new AbortController();
      const left = fetch(`${t.url}/collectibles`, {
        headers: { authorization: `Bearer ${t.adminKey}` },
        signal: leaving.signal,
      }).catch(() => "left");
      await new Promise((r) => setTimeout(r, 200));
      leaving.abort();
      expect(await left).toBe("left");
      await new Promise((r) => setTimeout(r, 100));

      // The turns come free; had the read of collectibles run, it would wait on their lock.
      await lockUsers.query("commit");
      expect((await Promise.all(heldReads)).map((res) => res.status)).toEqual([200, 200]);
      await new Promise((r) => setTimeout(r, 300));
      expect(await waitingOnLocks(lockUsers)).toBe(0);
    } finally {
      await lockUsers.query("rollback").catch(() => {});
      await lockCollectibles.query("rollback").catch(() => {});
      await Promise.all([lockUsers.end(), lockCollectibles.end()]);
    }
  });
});

describe("query parameters an endpoint does not take", () => {
  it("are refused with 400 unknown_field by a key's endpoints, so a filter they lack never answers everything", async () => {
    const org = (await t.call("POST", "/organizations", { json: { name: "Asked" } })).body.data;
    for (const path of [
      `/webhooks?organization_id=${org.id}`,
      "/api-keys?limit=1",
      `/organizations/${org.id}?expand=users`,
    ]) {
      const res = await t.call("GET", path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      const [name] = path.split("?")[1]?.split("=") ?? [];
      expect(res.body.error.details).toEqual([
        { field: name, code: "unknown_field", message: "is not a known field" },
      ]);
    }
  });

  it("are let through by public endpoints, which monitors and caches may decorate", async () => {
    expect((await t.call("GET", "/health?probe=1", { key: null })).status).toBe(200);
  });
});
