/**
 * List answers are kept and given again while the database is unchanged (http/listPages.ts):
 * a client still sees every committed write at once, whoever made it, and only what its key may
 * see.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { expect, it } from "vitest";
import { driverClientOf } from "../db/client.ts";
import { CountingPGlite } from "../db/countingPglite.ts";
import { testAppPerFile } from "../test/perFile.ts";
import { testDriver } from "../test/testDatabase.ts";

const t = testAppPerFile();

const names = (res: { body: { data: { name: string }[] } }) =>
  res.body.data.map((row) => row.name).sort();

async function organization(name: string, parentId?: string): Promise<string> {
  const res = await t.call("POST", "/organizations", {
    json: { name, ...(parentId ? { parent_id: parentId } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

it("answers the same list again with the same bytes", async () => {
  await organization("Same bytes");
  const first = await t.call("GET", "/organizations?limit=100");
  const again = await t.call("GET", "/organizations?limit=100");
  expect(again.status).toBe(200);
  expect(again.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(again.raw.equals(first.raw)).toBe(true);
});

it("shows a row changed outside the API in the next answer", async () => {
  const id = await organization("Before the outside write");
  await t.call("GET", "/organizations?limit=100");
  await t.call("GET", "/organizations?limit=100");
  await t.database.db.execute(
    sql`update organizations set name = 'After the outside write' where id = ${id}`,
  );
  const res = await t.call("GET", "/organizations?limit=100");
  expect(names(res)).toContain("After the outside write");
  expect(names(res)).not.toContain("Before the outside write");
});

it("shows a row added by the API in the next answer, count included", async () => {
  const before = await t.call("GET", "/organizations?limit=100");
  await organization("Added between two answers");
  const after = await t.call("GET", "/organizations?limit=100");
  expect(names(after)).toContain("Added between two answers");
  expect(after.body.pagination.count).toBe(before.body.pagination.count + 1);
});

it("gives a scoped key its own subtree, not an answer kept for another key", async () => {
  const parent = await organization("Scoped parent");
  await organization("Scoped child", parent);
  const scopedKey = await t.createKey(parent);
  // Its first use records when it was used (a write): done before the answer below is kept.
  await t.call("GET", "/organizations?limit=1", { key: scopedKey });
  const everything = await t.call("GET", "/organizations?limit=100");
  expect(names(everything)).toContain("Same bytes");
  const scoped = await t.call("GET", "/organizations?limit=100", { key: scopedKey });
  expect(names(scoped)).toEqual(["Scoped child", "Scoped parent"]);
});

it.runIf(testDriver() === "postgres")(
  "shows another connection's change once it commits, not before",
  async () => {
    const id = await organization("Committed later");
    const other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
    try {
      await other.query("begin");
      await other.query("update organizations set name = 'Committed now' where id = $1", [id]);
      const during = await t.call("GET", "/organizations?limit=100");
      expect(names(during)).toContain("Committed later");
      await other.query("commit");
      const after = await t.call("GET", "/organizations?limit=100");
      expect(names(after)).toContain("Committed now");
      expect(names(after)).not.toContain("Committed later");
    } finally {
      await other.end();
    }
  },
);

it.runIf(testDriver() === "pglite")(
  "on PGlite, answers a list again without running a statement, also after a read elsewhere",
  async () => {
    const client = driverClientOf(t.database.db);
    if (!(client instanceof CountingPGlite)) throw new Error("the API opens a CountingPGlite");
    // GET /users counts each user's claims: a statement for every answer it makes. The app's
    // webhook sender also runs statements now and then, so a few tries are allowed.
    const org = await organization("Statements");
    const user = await t.call("POST", "/users", {
      json: { organization_id: org, email: "statements@c.example" },
    });
    expect(user.status).toBe(201);
    const statementsOfAnswerAgain = async () => {
      await t.call("GET", "/users?limit=100");
      // A read elsewhere: it changes nothing, so the answer stays kept.
      expect((await t.call("GET", `/users/${user.body.data.id}`)).status).toBe(200);
      const before = client.statements;
      expect((await t.call("GET", "/users?limit=100")).status).toBe(200);
      return client.statements - before;
    };
    const tries: number[] = [];
    for (let i = 0; i < 5 && !tries.includes(0); i++) tries.push(await statementsOfAnswerAgain());
    expect(tries).toContain(0);
  },
);
