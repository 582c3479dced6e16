import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, KEY_PREFIX, revokeApiKey } from "../db/apiKeys.ts";
import { apiKeys } from "../db/schema.ts";
import { createLogger } from "../logger.ts";
import { startTestApp, type TestApp } from "../test/testApp.ts";
import { authenticate } from "./auth.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const basic = (user: string, password = "") =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

describe("authentication", () => {
  it("answers 401 with WWW-Authenticate: Basic and the JSON error when no key is sent", async () => {
    const res = await t.call("GET", "/organizations", { key: null });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(res.body).toEqual({
      error: { code: "unauthorized", message: expect.stringContaining("curl -u KEY:") },
    });
  });

  it("answers 401 for an unknown key", async () => {
    const res = await t.call("GET", "/organizations", {
      key: `${KEY_PREFIX}${"x".repeat(32)}`,
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(res.body.error.code).toBe("unauthorized");
  });

  it("answers 401 for a malformed Authorization header", async () => {
    for (const authorization of ["Basic", "Digest abc", "Bearer", "Basic !!!", "Bearer a b"]) {
      const res = await t.call("GET", "/organizations", {
        key: null,
        headers: { authorization },
      });
      expect(res.status, authorization).toBe(401);
    }
  });

  it("accepts the key as the Basic username with an empty password", async () => {
    const res = await t.call("GET", "/organizations", {
      key: null,
      headers: { authorization: basic(t.adminKey) },
    });
    expect(res.status).toBe(200);
  });

  it("accepts the key as a Bearer token", async () => {
    const res = await t.call("GET", "/organizations", {
      key: null,
      headers: { authorization: `Bearer ${t.adminKey}` },
    });
    expect(res.status).toBe(200);
  });

  it("answers 401 for a revoked key", async () => {
    const { key, info } = await createApiKey(t.database.db, { name: "to revoke" });
    expect((await t.call("GET", "/users", { key })).status).toBe(200);
    await revokeApiKey(t.database.db, info.id);
    const res = await t.call("GET", "/users", { key });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/unknown or revoked/);
  });

  it("stores keys only as SHA-256 hashes, never in clear", async () => {
    const { key } = await createApiKey(t.database.db, { name: "hashed" });
    expect(key).toMatch(/^ck_live_[0-9A-Za-z]{32}$/);
    const rows = await t.database.db.select().from(apiKeys);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(t.adminKey);
    const hash = createHash("sha256").update(key).digest("hex");
    expect(rows.map((row) => row.keyHash)).toContain(hash);
    // The stored prefix is enough to recognise a key and far too short to use one.
    expect(rows.find((row) => row.keyHash === hash)?.prefix).toBe(key.slice(0, 12));
  });

  it("records when a key was last used", async () => {
    const { key, info } = await createApiKey(t.database.db, { name: "used" });
    expect(info.last_used_at).toBeNull();
    await t.call("GET", "/users", { key });
    const rows = await t.database.db.select().from(apiKeys);
    expect(rows.find((row) => row.id === info.id)?.lastUsedAt).toBeInstanceOf(Date);
  });
});

describe("where the key may come from", () => {
  it("reads the Basic username (any password) and a Bearer token, and nothing else", async () => {
    const accepted = [
      basic(t.adminKey),
      basic(t.adminKey, "ignored"),
      `bearer ${t.adminKey}`,
      `Bearer   ${t.adminKey}  `,
    ];
    for (const authorization of accepted) {
      const res = await t.call("GET", "/users", { key: null, headers: { authorization } });
      expect(res.status, authorization).toBe(200);
    }
    const refused = [basic(""), `Token ${t.adminKey}`, `Basic ${t.adminKey}`, `${t.adminKey}`];
    for (const authorization of refused) {
      const res = await t.call("GET", "/users", { key: null, headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
    }
  });

  it("leaves no trace of the key on the request once it is checked", async () => {
    const app = express();
    app.get("/seen", ...authenticate(t.database.db), (req, res) => {
      const fields = Object.entries(req).filter(([, value]) => typeof value !== "object");
      const parsed = (req as { auth?: unknown }).auth ?? null;
      res.json({ auth: res.locals.auth, parsed, fields: JSON.stringify(fields) });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/seen`, {
        headers: { authorization: basic(t.adminKey) },
      });
      const body = (await response.json()) as { auth: unknown; parsed: unknown; fields: string };
      expect(body.auth).toEqual({
        keyId: expect.any(String),
        organizationId: null,
        readOnly: false,
      });
      // The Authorization header stays (it is how the request arrived); no decoded copy does.
      expect(body.parsed).toBeNull();
      expect(body.fields).not.toContain(t.adminKey);
    } finally {
      server.close();
    }
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After once a key used its requests, without slowing other keys", async () => {
    const server = await t.startSibling({
      env: { RATE_LIMIT_MAX: "3", RATE_LIMIT_WINDOW_MS: "60000" },
    });
    const { key: other } = await createApiKey(t.database.db, { name: "other" });
    for (let i = 0; i < 3; i++) {
      expect((await server.call("GET", "/organizations")).status).toBe(200);
    }
    const limited = await server.call("GET", "/organizations");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(limited.body.error.code).toBe("rate_limited");
    expect((await server.call("GET", "/organizations", { key: other })).status).toBe(200);
  });
});

describe("request logs", () => {
  it("carry the request id and never the Authorization header or the key", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const server = await t.startSibling({
      logger: createLogger({ level: "info", destination }),
    });
    await server.call("GET", "/organizations?limit=1", {
      headers: { "x-request-id": "req-log-test" },
    });
    await server.call("GET", "/organizations", {
      key: null,
      headers: { authorization: `Bearer ${t.adminKey}` },
    });
    const logged = lines.join("");
    expect(logged).toContain("req-log-test");
    expect(logged).not.toContain(t.adminKey);
    expect(logged).not.toContain(Buffer.from(`${t.adminKey}:`).toString("base64"));
    expect(logged.toLowerCase()).not.toContain("authorization");
    const entry = JSON.parse(lines.find((line) => line.includes("req-log-test")) ?? "{}");
    expect(entry).toMatchObject({
      req: { id: "req-log-test", method: "GET" },
      res: { status: 200 },
    });
  });
});
