/**
 * A list answers what is committed when it is asked: every write shows at once, whoever made it
 * (this API, another connection), and a key sees only its subtree.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { expect, it } from "vitest";
import { testAppPerFile } from "../test/perFile.ts";

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

it("shows another connection's change once it commits, not before", async () => {
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
});
