/**
 * Keys over HTTP while the service runs: an
 * admin key issues a read-only key for one organization's subtree; that key reads its subtree,
 * is refused every write (403) and anything outside (404); a revocation holds from the next
 * request on. Only admin keys manage keys, and no answer but the create's shows a secret.
 */
import { describe, expect, it } from "vitest";
import { testAppPerFile } from "../../test/perFile.ts";

const t = testAppPerFile();

async function organization(name: string, parentId?: string): Promise<string> {
  const res = await t.call("POST", "/organizations", {
    json: { name, ...(parentId ? { parent_id: parentId } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe("/api-keys", () => {
  it("issues a read-only key for a subtree: it reads there, writes nothing, sees nothing else, and is refused once revoked", async () => {
    const tenant = await organization("Tenant");
    const child = await organization("Tenant child", tenant);
    const other = await organization("Someone else");

    const issued = await t.call("POST", "/api-keys", {
      json: { name: "reporting", organization_id: tenant, read_only: true },
    });
    expect(issued.status).toBe(201);
    expect(issued.body.data).toMatchObject({
      name: "reporting",
      organization_id: tenant,
      read_only: true,
      revoked_at: null,
    });
    const key: string = issued.body.data.key;
    expect(key).toMatch(/^ck_live_/);

    expect((await t.call("GET", `/organizations/${child}`, { key })).status).toBe(200);
    expect((await t.call("GET", `/organizations/${other}`, { key })).status).toBe(404);
    const write = await t.call("POST", "/users", {
      key,
      json: { organization_id: tenant, email: "no@keys.example" },
    });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe("read_only_key");
    expect(
      (await t.call("PATCH", `/organizations/${child}`, { key, json: { name: "x" } })).status,
    ).toBe(403);

    const listed = await t.call("GET", "/api-keys");
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(listed.body.data.map((k: { id: string }) => k.id)).toContain(issued.body.data.id);

    const revoked = await t.call("DELETE", `/api-keys/${issued.body.data.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    expect((await t.call("GET", `/organizations/${child}`, { key })).status).toBe(401);
    const again = await t.call("DELETE", `/api-keys/${issued.body.data.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("api_key_not_found");
  });

  it("lets only admin keys manage keys, and names an unknown organization", async () => {
    const tenant = await organization("Scoped");
    const scoped = await t.createKey(tenant);
    for (const [method, path] of [
      ["GET", "/api-keys"],
      ["POST", "/api-keys"],
    ] as const) {
      const res = await t.call(method, path, {
        key: scoped,
        json: method === "POST" ? { name: "x" } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe("admin_key_required");
      expect(res.body.error.message).toMatch(/^Managing API keys needs an admin key/);
    }
    const unknown = await t.call("POST", "/api-keys", {
      json: { name: "x", organization_id: "5b0e6a4e-8d5c-4f55-9d7b-7d0d0d3e6a11" },
    });
    expect(unknown.status).toBe(404);
    expect((await t.call("POST", "/api-keys", { json: { name: "" } })).status).toBe(400);
  });
});
