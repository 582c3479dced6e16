import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { Readiness } from "../../schemas/operations.ts";
import { testAppPerFile } from "../../test/perFile.ts";

const t = testAppPerFile();

describe("GET /health", () => {
  it("answers 200 without an API key", async () => {
    const res = await t.call("GET", "/health", { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: "ok" } });
  });

  it("echoes a well-formed X-Request-Id and generates one otherwise", async () => {
    const given = await t.call("GET", "/health", { headers: { "x-request-id": "abc-123" } });
    expect(given.headers.get("x-request-id")).toBe("abc-123");
    const generated = await t.call("GET", "/health", { headers: { "x-request-id": "<bad id>" } });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("GET /ready", () => {
  it("answers 200 ready when the database answers", async () => {
    const res = await t.call("GET", "/ready", { key: null });
    expect(res.status).toBe(200);
    const body = Readiness.parse(res.body);
    expect(body.data.status).toBe("ready");
    expect(body.data.checks.map((c) => [c.name, c.status])).toEqual([["database", "up"]]);
  });

  it("answers 200 degraded naming an optional dependency that is down", async () => {
    const server = await t.startSibling({
      readiness: [
        { name: "database", critical: true, check: () => t.database.ping() },
        { name: "chain", critical: false, check: () => Promise.reject(new Error("ECONNREFUSED")) },
        { name: "indexer", critical: false, check: () => Promise.resolve() },
      ],
    });
    const res = await server.call("GET", "/ready");
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("degraded");
    expect(res.body.data.checks).toContainEqual(
      expect.objectContaining({ name: "chain", status: "down", message: "ECONNREFUSED" }),
    );
    expect(res.body.data.checks).toContainEqual(
      expect.objectContaining({ name: "indexer", status: "up" }),
    );
  });

  it("answers 503 with every check when the database is down", async () => {
    const server = await t.startSibling({
      readiness: [
        { name: "database", critical: true, check: () => Promise.reject(new Error("down")) },
      ],
    });
    const res = await server.call("GET", "/ready");
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("not_ready");
    expect(res.body.error.details).toEqual([
      expect.objectContaining({ name: "database", status: "down", critical: true }),
    ]);
  });

  it("names a failed query by the database's own words, never by its statement", async () => {
    const server = await t.startSibling({
      readiness: [
        {
          name: "database",
          critical: true,
          check: () => t.database.db.execute(sql`select secret_column from no_such_table`),
        },
      ],
    });
    const res = await server.call("GET", "/ready");
    expect(res.status).toBe(503);
    const [check] = res.body.error.details;
    expect(check.message).toBe('relation "no_such_table" does not exist (42P01)');
    expect(JSON.stringify(res.body)).not.toMatch(/select|secret_column/i);
  });
});

describe("documentation", () => {
  it("GET /openapi.json answers an OpenAPI 3.1 document with every endpoint", async () => {
    const res = await t.call("GET", "/openapi.json", { key: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(Object.keys(res.body.paths).sort()).toEqual([
      "/api-keys",
      "/api-keys/{id}",
      "/claims",
      "/claims/batch",
      "/claims/{id}",
      "/collectibles",
      "/collectibles/{id}",
      "/events",
      "/health",
      "/images/{id}/{file}",
      "/metrics",
      "/openapi.json",
      "/organizations",
      "/organizations/{id}",
      "/ready",
      "/users",
      "/users/{id}",
      "/users/{id}/transfers-home",
      "/users/{id}/wallet-link",
      "/users/{id}/wallet-link-nonces",
      "/webhooks",
      "/webhooks/{id}",
      "/webhooks/{id}/deliveries",
      "/webhooks/{id}/resend",
      "/webhooks/{id}/rotate-secret",
    ]);
    // Every method of a path is described: the ones it takes, and 405 for the others.
    const organization = res.body.paths["/organizations/{id}"];
    expect(Object.keys(organization).sort()).toEqual(["delete", "get", "patch", "post", "put"]);
    for (const method of ["post", "put"]) {
      expect(Object.keys(organization[method].responses)).toContain("405");
    }
    expect(res.body.components.securitySchemes.basicAuth).toMatchObject({ scheme: "basic" });
    const create = res.body.components.schemas.CreateOrganization;
    expect(create.additionalProperties).toBe(false);
    expect(create.required).toEqual(["name"]);
    expect(res.body.components.schemas.Organization.properties.logo).toEqual({
      anyOf: [{ $ref: "#/components/schemas/ImageUrls" }, { type: "null" }],
    });
    const form = res.body.paths["/organizations"].post.requestBody.content["multipart/form-data"];
    expect(form.schema.$ref).toBe("#/components/schemas/CreateOrganizationForm");
    expect(res.body.components.schemas.CreateOrganizationForm.properties.logo).toMatchObject({
      type: "string",
      format: "binary",
    });
  });

  it("GET /docs serves the Swagger UI page and its assets from this server", async () => {
    const page = await t.call("GET", "/docs", { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const html = page.raw.toString();
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ["/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/docs/init.js"]) {
      expect(html).toContain(asset);
      const res = await t.call("GET", asset, { key: null });
      expect(res.status, asset).toBe(200);
    }
    expect((await t.call("GET", "/docs/package.json", { key: null })).status).toBe(404);
  });
});

describe("unknown routes", () => {
  it("answer 404 with the error envelope", async () => {
    const res = await t.call("GET", "/nope");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: { code: "route_not_found", message: "No route GET /nope" },
    });
  });
});
