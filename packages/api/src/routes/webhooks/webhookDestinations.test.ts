/**
 * What a key holder may register as a webhook, with private destinations not allowed (the
 * default): anything that reaches into the service's own network is refused with 400 before it
 * is saved; bad bodies name their field; one organization never sees another's webhooks.
 */
import { describe, expect, it } from "vitest";
import { testAppPerFile } from "../../test/perFile.ts";

const t = testAppPerFile();

async function organization(name: string): Promise<string> {
  const res = await t.call("POST", "/organizations", { json: { name } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const hook = (url: string) => ({ url, event_types: ["claim.confirmed"] });
const register = (url: string) => t.call("POST", "/webhooks", { json: hook(url) });

describe("webhook destinations", () => {
  it.each([
    "http://127.0.0.1:8080/hook",
    "http://localhost/hook",
    "http://10.1.2.3/hook",
    "http://192.168.0.10/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]:3000/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://0.0.0.0/hook",
    // 127.0.0.1 in other IPv6 forms: compatible, translated, 6to4, NAT64.
    "http://[::127.0.0.1]/hook",
    "http://[::7f00:1]/hook",
    "http://[::ffff:0:127.0.0.1]/hook",
    "http://[2002:7f00:1::]/hook",
    "http://[64:ff9b::a00:1]/hook",
    "http://[fd00::1]/hook",
    "http://100.64.0.1/hook",
  ])("refuses %s as not a public address, saving nothing", async (url) => {
    const res = await register(url);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("destination_not_allowed");
    const listed = await t.call("GET", "/webhooks");
    expect(listed.body.data.map((w: { url: string }) => w.url)).not.toContain(url);
  });

  it.each([
    "https://203.0.113.7/hook",
    "https://[2001:db8::1]/hook",
    "https://[2002:cb00:7107::1]/hook",
  ])("accepts %s, a public address", async (url) => {
    expect((await register(url)).status).toBe(201);
  });

  it("refuses moving a saved webhook to a private address", async () => {
    const created = await register("https://203.0.113.7/hook");
    expect(created.status).toBe(201);
    const moved = await t.call("PATCH", `/webhooks/${created.body.data.id}`, {
      json: { url: "http://127.0.0.1/hook" },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error.code).toBe("destination_not_allowed");
    const kept = await t.call("GET", `/webhooks/${created.body.data.id}`);
    expect(kept.body.data.url).toBe("https://203.0.113.7/hook");
  });

  it.each([
    [{ url: "ftp://203.0.113.7/hook", event_types: ["claim.confirmed"] }, "url"],
    [{ url: "not a url", event_types: ["claim.confirmed"] }, "url"],
    [{ url: "https://203.0.113.7/hook", event_types: [] }, "event_types"],
    [{ url: "https://203.0.113.7/hook", event_types: ["claim.minted"] }, "event_types.0"],
    [
      { url: "https://203.0.113.7/hook", event_types: ["claim.failed", "claim.failed"] },
      "event_types",
    ],
    [{ url: "https://203.0.113.7/hook", event_types: ["claim.failed"], secret: "mine" }, "secret"],
  ])("answers 400 naming the field for %j", async (body, field) => {
    const res = await t.call("POST", "/webhooks", { json: body });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("shows the secret only when created or rotated", async () => {
    const created = await register("https://203.0.113.8/hook");
    expect(created.body.data.secret).toMatch(/^whsec_/);
    const read = await t.call("GET", `/webhooks/${created.body.data.id}`);
    expect(read.body.data).not.toHaveProperty("secret");
    const listed = await t.call("GET", "/webhooks");
    expect(JSON.stringify(listed.body)).not.toContain(created.body.data.secret);
  });

  it("tells caches to keep no answer that shows a secret: created, rotated, a new API key", async () => {
    const created = await register("https://203.0.113.10/hook");
    expect(created.headers.get("cache-control")).toBe("no-store");
    const rotated = await t.call("POST", `/webhooks/${created.body.data.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    const key = await t.call("POST", "/api-keys", { json: { name: "cached nowhere" } });
    expect(key.status).toBe(201);
    expect(key.headers.get("cache-control")).toBe("no-store");
  });

  it("keeps one organization's webhooks out of another's sight and reach", async () => {
    const mine = await organization("Mine");
    const theirs = await organization("Theirs");
    const myKey = await t.createKey(mine);
    const theirKey = await t.createKey(theirs);
    const created = await t.call("POST", "/webhooks", {
      json: hook("https://203.0.113.9/hook"),
      key: myKey,
    });
    expect(created.status).toBe(201);
    expect(created.body.data.organization_id).toBe(mine);
    const id = created.body.data.id;

    for (const [method, path] of [
      ["GET", `/webhooks/${id}`],
      ["PATCH", `/webhooks/${id}`],
      ["DELETE", `/webhooks/${id}`],
      ["POST", `/webhooks/${id}/rotate-secret`],
      ["GET", `/webhooks/${id}/deliveries`],
    ] as const) {
      const res = await t.call(method, path, {
        key: theirKey,
        ...(method === "PATCH" ? { json: { enabled: false } } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const theirList = await t.call("GET", "/webhooks", { key: theirKey });
    expect(theirList.body.data).toEqual([]);
    const elsewhere = await t.call("POST", "/webhooks", {
      json: { ...hook("https://203.0.113.9/hook"), organization_id: mine },
      key: theirKey,
    });
    expect(elsewhere.status).toBe(404);
  });

  it("forgets a deleted webhook", async () => {
    const created = await register("https://203.0.113.10/hook");
    const id = created.body.data.id;
    const deleted = await t.call("DELETE", `/webhooks/${id}`);
    expect(deleted.body).toEqual({ data: { id, deleted: true } });
    expect((await t.call("GET", `/webhooks/${id}`)).status).toBe(404);
    expect((await t.call("DELETE", `/webhooks/${id}`)).status).toBe(404);
  });
});
