/**
 * The API as users run it: the real entry (`src/index.ts`) in a child process, for tests that
 * kill, restart or run several of it, and HTTP to it with one key.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ThrowAwayDatabase } from "@collectibles/devkit/postgres";
import {
  KNOWN_MODULE_FORMATS,
  killAllProcesses,
  type ManagedProcess,
  startProcess,
} from "@collectibles/devkit/processes";
import { afterAll, afterEach, beforeAll, inject } from "vitest";
import { type ChainStack, startChainStack } from "./chainStack.ts";
import { TEST_MNEMONIC } from "./constants.ts";
import { lateBound, stackGauges } from "./perFile.ts";
import { createPostgresDatabase } from "./testDatabase.ts";

const apiRoot = path.resolve(import.meta.dirname, "../..");
const RELAYER_LOCK_LINE = /relayer holds the sending lock/;

export interface ApiProcess {
  url: string;
  process: ManagedProcess;
  /** Resolves when this process takes the relayer's sending lock. */
  relaying: Promise<string>;
}

/** Kills `api` with SIGKILL, as a crash would, and resolves once it is gone. */
export async function crash(api: ManagedProcess): Promise<void> {
  process.kill(api.pid, "SIGKILL");
  await api.exited;
}

/** Starts the API with `env` (and only PATH and HOME besides); resolves once it listens. */
export async function startApiProcess(
  env: Record<string, string>,
  name = "the API",
): Promise<ApiProcess> {
  const api = startProcess({
    name,
    command: process.execPath,
    args: [...KNOWN_MODULE_FORMATS, "src/index.ts"],
    cwd: apiRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
  });
  // Both waits start before the process prints anything, so neither line can be missed.
  const relaying = api.waitForLine(RELAYER_LOCK_LINE, 600_000);
  relaying.catch(() => {});
  // The first start migrates a new database: slow on a loaded machine.
  const line = await api.waitForLine(/listening on http:\/\/\S+/, 180_000);
  return { url: /listening on (http:\/\/\S+)/.exec(line)?.[1] ?? "", process: api, relaying };
}

/**
 * The API processes of one test file. Before its tests: `setUp` starts what they need (a chain)
 * and answers its settings (the chain's variables, timeouts); every process then shares a
 * temporary DATA_DIR, the test mnemonic, `apiKey`, quiet logs and an ephemeral port, and a
 * database of its own. After them: every process is killed, `tearDown` runs, and
 * the folder and database go.
 */
export function apiProcessesPerFile(options: {
  name: string;
  apiKey: string;
  /** Absent: the processes need nothing started first (no chain). */
  setUp?: () => Promise<Record<string, string>>;
  tearDown?: () => Promise<void>;
}) {
  const env: Record<string, string> = {};
  let dataDir: string | undefined;
  let database: ThrowAwayDatabase | undefined;
  beforeAll(async () => {
    const settings = (await options.setUp?.()) ?? {};
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `api-${options.name}-`));
    database = await createPostgresDatabase();
    Object.assign(env, {
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      PORT: "0",
      DATA_DIR: dataDir,
      WALLET_MNEMONIC: TEST_MNEMONIC,
      API_KEY: options.apiKey,
      DATABASE_URL: database.url,
      ...settings,
    });
  }, 120_000);
  const started: ApiProcess[] = [];
  const caller = apiCaller(options.apiKey);
  // A failed test says what each API process still running was doing: a stalled relayer or
  // indexer shows in /ready and the gauges, a warning in the last lines it printed.
  afterEach(async ({ task }) => {
    if (task.result?.state !== "fail") return;
    for (const api of started.filter((a) => a.process.running())) {
      const ready = await caller.call(api.url, "GET", "/ready").then(
        (res) => res.text(),
        (error: unknown) => String(error),
      );
      const metrics = await caller.call(api.url, "GET", "/metrics").then(
        (res) => res.text(),
        () => "",
      );
      console.error(
        `after "${task.name}", ${api.url} (pid ${api.process.pid}): /ready ${ready}\n` +
          `${stackGauges(metrics)}\nits last lines:\n${api.process.tail()}`,
      );
    }
  });
  afterAll(async () => {
    killAllProcesses();
    await options.tearDown?.();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    /** Starts one more API process, with `overrides` on top of the file's settings. */
    async start(overrides: Record<string, string> = {}) {
      const api = await startApiProcess({ ...env, ...overrides });
      started.push(api);
      return api;
    },
    ...caller,
  };
}

/**
 * `apiProcessesPerFile` on a real chain, contract and indexer of the file's own. `settings` answers
 * the API's settings on that chain (the chain's own by default) and may start what stands between
 * the API and the chain; `tearDown` stops that, before the chain stops.
 */
export function apiProcessesOnChainPerFile(options: {
  name: string;
  apiKey: string;
  settings?: (stack: ChainStack) => Record<string, string> | Promise<Record<string, string>>;
  tearDown?: () => Promise<void>;
}) {
  let stack: ChainStack | undefined;
  const processes = apiProcessesPerFile({
    name: options.name,
    apiKey: options.apiKey,
    async setUp() {
      stack = await startChainStack({ postgresUrl: inject("postgresUrl") });
      return options.settings ? await options.settings(stack) : stack.env;
    },
    async tearDown() {
      await options.tearDown?.();
      await stack?.stop();
    },
  });
  // And what the file's indexer last printed and where it stands.
  afterEach(async ({ task }) => {
    if (task.result?.state !== "fail" || !stack) return;
    const status = await fetch(`${stack.indexerUrl}/status`).then(
      (res) => res.text(),
      (error: unknown) => String(error),
    );
    const lines = stack.indexer.logTail().split("\n").slice(-20).join("\n");
    console.error(
      `after "${task.name}", the indexer: /status ${status}\nits last lines:\n${lines}`,
    );
  });
  return { ...processes, stack: lateBound(() => stack, "the chain stack") };
}

/** HTTP to an API process with `key` as the Basic username. */
export function apiCaller(key: string) {
  const authorization = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
  const request = (url: string, method: string, urlPath: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", authorization);
    return fetch(url + urlPath, { ...init, method, headers });
  };
  /** A JSON call, with an Idempotency-Key when given. */
  const call = (
    url: string,
    method: string,
    urlPath: string,
    json?: unknown,
    idempotencyKey?: string,
  ) => {
    const headers: Record<string, string> = {};
    if (json !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    return request(url, method, urlPath, {
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
    });
  };
  return {
    request,
    call,
    /** POST /collectibles: `totalCount` editions of `name` in the organization. */
    createCollectible(url: string, organizationId: string, name: string, totalCount: number) {
      const json = { organization_id: organizationId, name, total_count: totalCount };
      return call(url, "POST", "/collectibles", json);
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
export const jsonOf = (res: Response): Promise<any> => res.json();
