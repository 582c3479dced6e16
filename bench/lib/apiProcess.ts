/**
 * The API under test as a child process (the real entry, packages/api/src/index.ts, whose types
 * Node strips), started as `pnpm start` starts it, and keep-alive HTTP to it with the
 * benchmark's key.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { API_NODE_FLAGS } from "@collectibles/api/heap";
import {
  KNOWN_MODULE_FORMATS,
  type ManagedProcess,
  startProcess,
} from "@collectibles/devkit/processes";

export const API_KEY = `ck_live_${randomBytes(16).toString("hex")}`;
const apiRoot = path.resolve(import.meta.dirname, "../../packages/api");

export interface RunningApi {
  url: string;
  pid: number;
  database: string;
  stop(): Promise<void>;
}

export interface StartApiOptions {
  /** With it, the API writes a V8 CPU profile there on exit. */
  profileDir?: string;
  /** Where to say that the API exited while nobody stopped it. */
  log(message: string): void;
}

/** Starts the real API entry with `env` (and PATH, HOME) as its whole environment. */
export async function startApi(
  env: Record<string, string>,
  { profileDir, log }: StartApiOptions,
): Promise<RunningApi> {
  // The flags `pnpm start` passes, then BENCH_API_NODE_ARGS: extra Node flags, e.g.
  // `--cpu-prof --cpu-prof-dir=/tmp/p`.
  const nodeArgs = [
    ...KNOWN_MODULE_FORMATS,
    ...API_NODE_FLAGS,
    ...(process.env.BENCH_API_NODE_ARGS ?? "").split(" ").filter(Boolean),
  ];
  if (profileDir) nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${profileDir}`);
  // The request log (JSON lines at info, as in production) is read and dropped, as a log shipper
  // would take it away; the tail is kept for error messages.
  let database = "unknown";
  let stopping = false;
  const api: ManagedProcess = startProcess({
    name: "the API",
    command: process.execPath,
    args: [...nodeArgs, "src/index.ts"],
    cwd: apiRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    // BENCH_API_LOG=<file>: everything the API prints kept there too, to see why it failed.
    ...(process.env.BENCH_API_LOG ? { logFile: process.env.BENCH_API_LOG } : {}),
    onLine: (line) => {
      const db = /database: (.*)/.exec(line);
      if (db?.[1]) database = db[1].trim();
    },
  });
  const stop = async () => {
    stopping = true;
    await api.stop(15_000);
  };
  let url: string;
  try {
    const line = await api.waitForLine(/listening on http:\/\/\S+/, 180_000);
    url = /listening on (http:\/\/\S+)/.exec(line)?.[1] ?? "";
    // The database line follows the listening line.
    await api.waitUntil("naming its database", async () => database !== "unknown", 10_000);
  } catch (error) {
    await stop();
    throw error;
  }
  void api.exited.then(({ code, signal }) => {
    if (!stopping) log(`the API exited unexpectedly (${code ?? signal}):\n${api.tail()}`);
  });
  return { url, pid: api.pid, database, stop };
}

/**
 * No socket limit: a caller's own concurrency (the burst's connections, the writer's rate)
 * decides. Keep-alive, with a `timeout`: only then does Node's agent take the server's
 * `Keep-Alive: timeout=5` hint and drop an idle connection a second before the API closes it.
 * Without one it kept them, and a claim sent on a connection idle 6 s met the API closing it
 * ("socket hang up").
 */
export const agent = new http.Agent({ keepAlive: true, timeout: 60_000 });
const authorization = `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}`;

export function call(
  base: string,
  method: string,
  urlPath: string,
  json?: unknown,
): Promise<{ status: number; body: string }> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}${urlPath}`,
      {
        method,
        agent,
        headers: {
          authorization,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on("error", reject);
      },
    );
    request.setTimeout(60_000, () => request.destroy(new Error(`${method} ${urlPath}: timeout`)));
    request.on("error", reject);
    request.end(body);
  });
}

export async function callJson<T>(base: string, method: string, urlPath: string, json?: unknown) {
  const response = await call(base, method, urlPath, json);
  if (response.status >= 300) {
    throw new Error(`${method} ${urlPath}: ${response.status} ${response.body.slice(0, 500)}`);
  }
  return { status: response.status, json: JSON.parse(response.body) as T };
}

/**
 * A new organization and a collectible of `totalCount` editions through the API, once the chain
 * has it (confirmed): claims can be made of it from then on. Answers its id.
 */
export async function confirmedCollectible(
  base: string,
  name: string,
  totalCount: number,
): Promise<string> {
  const org = await callJson<{ data: { id: string } }>(base, "POST", "/organizations", {
    name: `${name} benchmark`,
  });
  const created = await callJson<{ data: { id: string } }>(base, "POST", "/collectibles", {
    organization_id: org.json.data.id,
    name,
    description: "Made by a benchmark",
    total_count: totalCount,
  });
  const id = created.json.data.id;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { json } = await callJson<{ data: { status: string } }>(
      base,
      "GET",
      `/collectibles/${id}`,
    );
    if (json.data.status === "confirmed") return id;
    if (json.data.status === "failed") throw new Error(`collectible ${name} failed on-chain`);
    if (Date.now() > deadline)
      throw new Error(`collectible ${name} not confirmed within 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
