/**
 * One webhook POST against real receivers on loopback that misbehave: it follows no redirect,
 * gives up on a receiver that does not answer (or never finishes answering) within its timeout,
 * and connects to no private address unless allowed.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postWebhook } from "./post.ts";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A receiver on loopback; answers what `handle` does; keeps the paths it was asked for. */
async function receiver(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? "");
    handle(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
}

const allowed = { timeoutMs: 500, allowPrivate: true };

describe("postWebhook", () => {
  it("does not follow a redirect: a 302 is the answer, and its Location is never asked", async () => {
    const target = await receiver((_req, res) => {
      res.writeHead(302, { location: "/elsewhere" }).end();
    });
    const outcome = await postWebhook(`${target.url}/hook`, "{}", {}, allowed);
    expect(outcome).toEqual({ statusCode: 302, error: null });
    expect(target.paths).toEqual(["/hook"]);
  });

  it("gives up on a receiver that never answers, after its timeout", async () => {
    const silent = await receiver(() => {});
    const started = Date.now();
    const outcome = await postWebhook(`${silent.url}/hook`, "{}", {}, allowed);
    expect(outcome).toEqual({ statusCode: null, error: "no answer within 500 ms" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("gives up on a receiver that starts its answer but never ends it, after its timeout", async () => {
    const dribbling = await receiver((_req, res) => {
      res.writeHead(200);
      res.write("still going");
    });
    const outcome = await postWebhook(`${dribbling.url}/hook`, "{}", {}, allowed);
    expect(outcome).toEqual({ statusCode: null, error: "no answer within 500 ms" });
  });

  it("connects to no private address unless allowed", async () => {
    const inside = await receiver((_req, res) => res.end());
    const outcome = await postWebhook(
      `${inside.url}/hook`,
      "{}",
      {},
      {
        ...allowed,
        allowPrivate: false,
      },
    );
    expect(outcome).toEqual({ statusCode: null, error: "127.0.0.1 is a private address" });
    expect(inside.paths).toEqual([]);
    const byName = await postWebhook(
      inside.url.replace("127.0.0.1", "localhost"),
      "{}",
      {},
      { ...allowed, allowPrivate: false },
    );
    expect(byName.statusCode).toBeNull();
    expect(inside.paths).toEqual([]);
  });
});
