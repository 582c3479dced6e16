/**
 * Handles for what a test file starts in its `beforeAll`: usable at the top of the file, they
 * forward to the real object once it exists (test files share a worker's module cache, so a
 * shared helper cannot start things as a side effect of being imported).
 */
import { afterAll, afterEach, beforeAll, inject } from "vitest";
import { type ChainStack, startChainStack } from "./chainStack.ts";
import { type ServerOptions, startTestApp, type TestApp } from "./testApp.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhookReceiver.ts";

/** A stand-in for an object that `current()` returns once it exists. */
export function lateBound<T extends object>(current: () => T | undefined, what: string): T {
  const target = () => {
    const found = current();
    if (!found) throw new Error(`${what} is used before its beforeAll ran`);
    return found;
  };
  return new Proxy({} as T, {
    get(_, property) {
      const value = Reflect.get(target(), property);
      return typeof value === "function" ? value.bind(target()) : value;
    },
    // Settings a test changes (a receiver's answer) go to the real object.
    set: (_, property, value) => Reflect.set(target(), property, value),
  });
}

/** The test app of one test file: started before its tests, closed after them. */
export function testAppPerFile(options: ServerOptions = {}): TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(options);
  });
  afterAll(() => app?.close());
  return lateBound(() => app, "the test app");
}

/** A /metrics scrape's relayer, indexer and chain gauges: what a failed test shows. */
export function stackGauges(metrics: string): string {
  return metrics
    .split("\n")
    .filter((line) => /^collectibles_(relayer|indexer|chain)/.test(line))
    .join("\n");
}

/**
 * A real chain, contract and indexer with the test app on it, and one organization, for one test
 * file. `env` adds to the chain's settings (for example CONFIRM_TIMEOUT_MS).
 */
export function chainAppPerFile(options: { organization: string; env?: Record<string, string> }) {
  let stack: ChainStack | undefined;
  let app: TestApp | undefined;
  const org = { id: "" };
  beforeAll(async () => {
    stack = await startChainStack({ postgresUrl: inject("postgresUrl") });
    app = await startTestApp({ env: { ...stack.env, ...options.env } });
    const res = await app.call("POST", "/organizations", { json: { name: options.organization } });
    Object.assign(org, res.body.data);
  }, 120_000);
  // A chain test that fails says what the stack was doing: a stalled relayer or indexer shows here.
  afterEach(async ({ task }) => {
    if (task.result?.state !== "fail" || !app) return;
    const ready = await app.call("GET", "/ready").catch((error: unknown) => ({ body: error }));
    const metrics = await app.call("GET", "/metrics").catch(() => undefined);
    const gauges = stackGauges(metrics?.raw.toString("utf8") ?? "");
    console.error(`after "${task.name}": /ready ${JSON.stringify(ready.body)}\n${gauges}`);
  });
  afterAll(async () => {
    await app?.close();
    await stack?.stop();
  });
  return {
    t: lateBound(() => app, "the test app"),
    stack: lateBound(() => stack, "the chain stack"),
    org,
  };
}

/**
 * A webhook receiver on loopback for one test file: started before its tests, closed after. What
 * a test makes it answer ends with that test: the next one starts with 200 at once.
 */
export function webhookReceiverPerFile(): WebhookReceiver {
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(() => {
    if (!receiver) return;
    receiver.answer = () => 200;
    receiver.delayMs = 0;
  });
  afterAll(() => receiver?.close());
  return lateBound(() => receiver, "the webhook receiver");
}
