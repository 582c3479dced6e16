import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { listEnvelope } from "../../schemas/common.ts";
import { Organization } from "../../schemas/organizations.ts";
import { pagination } from "../../test/pagination.ts";
import { testAppPerFile } from "../../test/perFile.ts";
import { expect400Naming } from "../../test/refusals.ts";
import { byCreation, type Org, organizationCreator } from "./organizations.testkit.ts";

const t = testAppPerFile();
const createOrg = organizationCreator(t);

describe("GET /organizations", () => {
  let parent: Org;
  const children: Org[] = [];

  beforeAll(async () => {
    parent = await createOrg({ name: "Pager" });
    for (let i = 0; i < 5; i++) {
      children.push(
        await createOrg({ name: `Child ${i}`, parent_id: parent.id, external_id: `child-${i}` }),
      );
    }
  });

  const page = (query: string) => t.call("GET", `/organizations?parent_id=${parent.id}&${query}`);

  it("answers pages with count, pages and a last partial page", async () => {
    const first = await page("limit=2&page=1");
    expect(first.status).toBe(200);
    listEnvelope(Organization).parse(first.body);
    expect(first.body.pagination).toEqual(pagination({ page: 1, size: 2, pages: 3, count: 5 }));
    expect(first.body.data).toHaveLength(2);
    const last = await page("limit=2&page=3");
    expect(last.body.pagination).toEqual(pagination({ page: 3, size: 2, pages: 3, count: 5 }));
    expect(last.body.data).toHaveLength(1);
  });

  it("answers an empty page past the end with the true count", async () => {
    const res = await page("limit=2&page=4");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      pagination: pagination({ page: 4, size: 2, pages: 3, count: 5 }),
      data: [],
    });
  });

  it("orders by created_at then id, so pages never overlap or skip", async () => {
    const ids: string[] = [];
    for (let p = 1; p <= 3; p++) {
      ids.push(...(await page(`limit=2&page=${p}`)).body.data.map((o: Org) => o.id));
    }
    const expected = [...children]
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
      .map((o) => o.id);
    expect(ids).toEqual(expected);
  });

  it("defaults to page 1 of 20", async () => {
    const res = await page("");
    expect(res.body.pagination).toEqual(pagination({ page: 1, size: 20, pages: 1, count: 5 }));
  });

  it("answers pages = 0 when nothing matches", async () => {
    const res = await t.call("GET", "/organizations?external_id=no-such-thing");
    expect(res.body).toEqual({
      pagination: pagination({ page: 1, size: 20, pages: 0, count: 0 }),
      data: [],
    });
  });

  it("answers 400 naming limit or page when out of range or not a number", async () => {
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=abc", "limit"],
      ["limit=2.5", "limit"],
      ["page=0", "page"],
      ["page=-1", "page"],
      ["page=x", "page"],
    ]) {
      const res = await t.call("GET", `/organizations?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.details[0].field, query).toBe(field);
    }
    expect((await t.call("GET", "/organizations?limit=100")).status).toBe(200);
  });

  it("answers 400 for an unknown query parameter or a repeated one", async () => {
    const unknown = await t.call("GET", "/organizations?parentid=x");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0]).toMatchObject({
      field: "parentid",
      code: "unknown_field",
    });
    const repeated = await t.call("GET", "/organizations?page=1&page=2");
    expect400Naming(repeated, "page");
  });

  it("walks every item exactly once for any page size", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 7 }), async (limit) => {
        const seen: string[] = [];
        const first = await page(`limit=${limit}`);
        expect(first.body.pagination.pages).toBe(Math.ceil(5 / limit));
        for (let p = 1; p <= first.body.pagination.pages; p++) {
          const res = await page(`limit=${limit}&page=${p}`);
          expect(res.body.data.length).toBe(p < Math.ceil(5 / limit) ? limit : 5 - (p - 1) * limit);
          seen.push(...res.body.data.map((o: Org) => o.id));
        }
        expect(seen).toEqual(children.map((c) => c.id).sort(byCreation(children)));
      }),
      { numRuns: 7 },
    );
  });

  it("filters by external_id, parent_id and wallet_address in any letter case", async () => {
    const child = children[3] as Org & { wallet_address: string };
    const byExternal = await t.call("GET", "/organizations?external_id=child-3");
    expect(byExternal.body.data.map((o: Org) => o.id)).toEqual([child.id]);
    const lower = child.wallet_address.toLowerCase();
    for (const asked of [child.wallet_address, lower]) {
      const byWallet = await t.call("GET", `/organizations?wallet_address=${asked}`);
      expect(byWallet.body.data.map((o: Org) => o.id)).toEqual([child.id]);
    }
    const byParent = await page("limit=100");
    expect(byParent.body.data.every((o: Org) => o.parent_id === parent.id)).toBe(true);
  });
});
