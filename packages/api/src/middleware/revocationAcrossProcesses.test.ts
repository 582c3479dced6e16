/**
 * A key revoked through one API process is refused by another one on the same PostgreSQL from
 * its next request on, although that process had just accepted the key (and keeps keys it found
 * for a second to spare the database a round trip per request): the revocation is announced with
 * NOTIFY at commit. (The in-process case is in routes/apiKeys/apiKeys.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { KEY_CACHE_MS } from "../db/apiKeys.ts";
import { apiCaller, apiProcessesPerFile, jsonOf } from "../test/apiProcess.ts";

const ADMIN_KEY = "ck_test_revocationacrossprocesses01";

const { start, call, request } = apiProcessesPerFile({
  name: "revocation",
  apiKey: ADMIN_KEY,
});

describe("two API processes on one PostgreSQL", () => {
  it("refuses a key revoked through the other process at once, well within the key cache's second", async () => {
    const [one, two] = await Promise.all([start(), start()]);
    const issued = await jsonOf(await call(one.url, "POST", "/api-keys", { name: "short-lived" }));
    const key: string = issued.data.key;
    const asKey = (url: string) => apiCaller(key).request(url, "GET", "/organizations");
    // The second process finds the key and keeps it.
    expect((await asKey(two.url)).status).toBe(200);
    const revoked = await request(one.url, "DELETE", `/api-keys/${issued.data.id}`);
    expect(revoked.status).toBe(200);
    const started = Date.now();
    let status = (await asKey(two.url)).status;
    // NOTIFY reaches the other process in milliseconds; a few tries cover the hop.
    while (status === 200 && Date.now() - started < KEY_CACHE_MS / 4) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = (await asKey(two.url)).status;
    }
    expect(status).toBe(401);
    await Promise.all([one.process.stop(), two.process.stop()]);
  }, 120_000);
});
