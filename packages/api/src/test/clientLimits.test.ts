/**
 * Clients that take too long or try too often: a body trickled in past REQUEST_TIMEOUT_MS is cut
 * off with 408; an address that sent too many wrong keys is refused 429, but never a valid key
 * from it.
 */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { testAppPerFile } from "./perFile.ts";

const t = testAppPerFile();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("slow clients", () => {
  it("closes a connection whose body trickles in past REQUEST_TIMEOUT_MS, answering 408", async () => {
    const slow = await t.startSibling({ env: { REQUEST_TIMEOUT_MS: "2000" } });
    const socket = net.connect(Number(new URL(slow.url).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
    });
    const closed = new Promise<number>((resolve) =>
      socket.once("close", () => resolve(Date.now())),
    );
    const started = Date.now();
    socket.write(
      `POST /organizations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.adminKey}\r\n` +
        "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
    );
    // A byte every 200 ms: never idle long, never done.
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write(" ");
    }, 200);
    const at = await Promise.race([closed, sleep(15_000).then(() => undefined)]);
    clearInterval(trickle);
    socket.destroy();
    expect(at, "the connection was still open after 15 s").toBeDefined();
    expect((at as number) - started).toBeLessThan(6_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);
});

describe("floods without a valid key", () => {
  it("are refused 429 with Retry-After for the address once it sent too many refused keys", async () => {
    const limited = await t.startSibling({ env: { ANONYMOUS_RATE_LIMIT_MAX: "5" } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push(
        (await limited.call("GET", "/users", { key: `ck_live_${"x".repeat(30)}${i}` })).status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    const refused = await limited.call("GET", "/users", { key: null });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.body.error.code).toBe("rate_limited");
  });

  it("never lock out a valid key from the flooding address, by Basic or Bearer", async () => {
    const limited = await t.startSibling({ env: { ANONYMOUS_RATE_LIMIT_MAX: "3" } });
    // A key not used yet by this process: it must be looked up, not found in memory.
    const valid = await t.createKey();
    for (let i = 0; i < 6; i++) {
      await limited.call("GET", "/users", { key: `ck_live_${"y".repeat(30)}${i}` });
    }
    expect((await limited.call("GET", "/users", { key: `ck_live_${"y".repeat(31)}` })).status).toBe(
      429,
    );
    expect((await limited.call("GET", "/users", { key: valid })).status).toBe(200);
    const bearer = await limited.call("GET", "/users", {
      key: null,
      headers: { authorization: `Bearer ${t.adminKey}` },
    });
    expect(bearer.status).toBe(200);
  });

  it("do not include requests with a valid key that their client gave up on", async () => {
    const limited = await t.startSibling({ env: { ANONYMOUS_RATE_LIMIT_MAX: "3" } });
    const { port } = new URL(limited.url);
    for (let i = 0; i < 6; i++) {
      // A body announced and never sent: the key passes, then the client leaves mid-body.
      const socket = net.connect(Number(port), "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(
        `POST /organizations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.adminKey}\r\n` +
          "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await limited.call("GET", "/users")).status).toBe(200);
    expect((await limited.call("GET", "/users", { key: null })).status).toBe(401);
  });
});
