/**
 * The filters every list shares (`updated_since`) and the claims' `status` filter: what a client
 * that syncs by polling relies on.
 */
import { describe, expect, it } from "vitest";
import { chainAppPerFile } from "../test/perFile.ts";
import { expect400Naming } from "../test/refusals.ts";

const { t, org } = chainAppPerFile({
  organization: "Filters",
  env: { CONFIRM_TIMEOUT_MS: "60000" },
});

describe("updated_since", () => {
  it("lists only the records changed at or after the time, a change bringing one back", async () => {
    const first = (
      await t.call("POST", "/users", { json: { organization_id: org.id, email: "f1@x.example" } })
    ).body.data;
    const second = (
      await t.call("POST", "/users", { json: { organization_id: org.id, email: "f2@x.example" } })
    ).body.data;
    const since = encodeURIComponent(second.updated_at);
    const listed = async () =>
      (await t.call("GET", `/users?organization_id=${org.id}&updated_since=${since}`)).body;
    const before = await listed();
    expect(before.data.map((u: { id: string }) => u.id)).toEqual([second.id]);
    expect(before.pagination.count).toBe(1);

    await t.call("PATCH", `/users/${first.id}`, { json: { name: "Changed" } });
    const after = await listed();
    expect(after.data.map((u: { id: string }) => u.id).sort()).toEqual(
      [first.id, second.id].sort(),
    );
  });

  it("answers 400 naming updated_since when it is not an ISO 8601 time", async () => {
    const res = await t.call("GET", "/organizations?updated_since=yesterday");
    expect400Naming(res, "updated_since");
  });

  it("answers 400, not 500, for a time outside the years 1 to 9999 (PostgreSQL has no year 0)", async () => {
    for (const since of [
      "0000-01-01T00:00:00Z",
      "0001-01-01T00:30:00+01:00",
      "+010000-01-01T00:00:00Z",
    ]) {
      for (const list of ["organizations", "users", "collectibles", "claims"]) {
        const res = await t.call("GET", `/${list}?updated_since=${encodeURIComponent(since)}`);
        expect400Naming(res, "updated_since");
      }
    }
    const edge = await t.call("GET", `/organizations?updated_since=0001-01-01T00:00:00Z`);
    expect(edge.status).toBe(200);
  });
});

describe("claims by status", () => {
  it("lists only the claims in the state asked for, and refuses an unknown state", async () => {
    const created = await t.call("POST", "/collectibles", {
      json: { organization_id: org.id, name: "Filtered", total_count: 5 },
    });
    const collectibleId = created.body.data.id;
    for (const email of ["s1@x.example", "s2@x.example"]) {
      const res = await t.call("POST", "/claims", {
        json: { collectible_id: collectibleId, email },
      });
      expect(res.body.data.status).toBe("confirmed");
    }
    const list = (status: string) =>
      t.call("GET", `/claims?collectible_id=${collectibleId}&status=${status}`);
    expect((await list("confirmed")).body.pagination.count).toBe(2);
    expect((await list("pending")).body.pagination.count).toBe(0);
    const refused = await list("minted");
    expect400Naming(refused, "status");
  }, 120_000);
});
