/**
 * Cursor pagination beside pages: every list answers pagination.next_cursor, and ?cursor= walks
 * the list in the same order as pages, without gaps or repeats, also while rows are added.
 */
import { describe, expect, it } from "vitest";
import { encodeCursor } from "../schemas/common.ts";
import { testAppPerFile } from "../test/perFile.ts";

const t = testAppPerFile();

async function organizationWithUsers(name: string, users: number) {
  const org = (await t.call("POST", "/organizations", { json: { name } })).body.data;
  for (let i = 0; i < users; i++) {
    await t.call("POST", "/users", {
      json: { organization_id: org.id, email: `${name}-${i}@c.example` },
    });
  }
  return org.id as string;
}

/** Every id of the list, page after page by cursor, from the first page. */
async function walk(path: string, limit: number, during?: (page: number) => Promise<void>) {
  const ids: string[] = [];
  let res = await t.call("GET", `${path}&limit=${limit}`);
  for (let page = 1; ; page++) {
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((row: { id: string }) => row.id));
    const next = res.body.pagination.next_cursor;
    if (!next) return ids;
    await during?.(page);
    res = await t.call("GET", `${path}&limit=${limit}&cursor=${next}`);
    expect(res.body.pagination.page).toBeNull();
  }
}

describe("cursor pagination", () => {
  it("walks every row once, in the order pages give them", async () => {
    const org = await organizationWithUsers("walk", 7);
    const byCursor = await walk(`/users?organization_id=${org}`, 2);
    const byPage: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await t.call("GET", `/users?organization_id=${org}&limit=2&page=${page}`);
      byPage.push(...res.body.data.map((row: { id: string }) => row.id));
    }
    expect(byCursor).toHaveLength(7);
    expect(new Set(byCursor).size).toBe(7);
    expect(byCursor).toEqual(byPage);
  });

  it("gives no next_cursor on a full last page, by page and by cursor, so a walk asks no empty page", async () => {
    const org = await organizationWithUsers("exact", 20);
    for (const limit of [2, 20]) {
      const path = `/users?organization_id=${org}&limit=${limit}`;
      const last = await t.call("GET", `${path}&page=${20 / limit}`);
      expect(last.body.data).toHaveLength(limit);
      expect(last.body.pagination.next_cursor, `limit ${limit}`).toBeNull();
      let pages = 0;
      let res = await t.call("GET", path);
      for (;;) {
        pages++;
        expect(res.body.data).toHaveLength(limit);
        const next = res.body.pagination.next_cursor;
        if (!next) break;
        res = await t.call("GET", `${path}&cursor=${next}`);
      }
      expect(pages, `limit ${limit}`).toBe(20 / limit);
    }
  });

  it("skips and repeats nothing while rows are added during the walk, and reaches the new ones", async () => {
    const org = await organizationWithUsers("growing", 4);
    let added = 0;
    const ids = await walk(`/users?organization_id=${org}`, 3, async () => {
      await t.call("POST", "/users", {
        json: { organization_id: org, email: `late-${added++}@c.example` },
      });
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(4 + added);
  });

  it("answers 400 for a cursor it did not give, and for page and cursor together", async () => {
    const bad = await t.call("GET", "/organizations?cursor=not-a-cursor");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ field: "cursor", code: "invalid_cursor" });
    const cursor = encodeCursor({ createdAt: new Date().toISOString(), id: crypto.randomUUID() });
    const both = await t.call("GET", `/organizations?page=2&cursor=${cursor}`);
    expect(both.status).toBe(400);
    expect(both.body.error.details[0]).toMatchObject({ field: "cursor", code: "page_and_cursor" });
  });

  it("answers 400 invalid_cursor, not 500, for a cursor naming a time PostgreSQL cannot hold", async () => {
    for (const createdAt of [
      "0000-01-01T00:00:00.000Z",
      "-000001-01-01T00:00:00.000Z",
      "+010000-01-01T00:00:00.000Z",
    ]) {
      const cursor = encodeCursor({ createdAt, id: crypto.randomUUID() });
      for (const list of ["organizations", "users", "collectibles", "claims"]) {
        const res = await t.call("GET", `/${list}?cursor=${cursor}`);
        expect(res.status, `${list} ${createdAt}`).toBe(400);
        expect(res.body.error.details[0]).toMatchObject({
          field: "cursor",
          code: "invalid_cursor",
        });
      }
    }
  });
});
