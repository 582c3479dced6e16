/**
 * A process of the list benchmark (run with tsx, see benchmarks/lists.ts):
 *
 *   seed <databaseUrl> <seed> <rows>   fills the API's database before the API opens it, in a
 *                                      process of its own: a production API opens data that
 *                                      exists, it does not hold what bulk-loading it took
 *   bare-http <bodyFile>               node:http answering a fixed JSON body
 *   bare-express <bodyFile>            Express answering the same body
 *
 * A bare server listens on 127.0.0.1 (any free port) and reports `{ url }` over IPC; the seed
 * reports `{ seeded }` and exits. On SIGTERM a server closes.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

const [mode, ...args] = process.argv.slice(2);
const cleanups: (() => Promise<void>)[] = [];

/** Sends `message` to the parent; resolves once it is sent (the seed mode exits right after). */
function report(message: Record<string, unknown>): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) throw new Error("server.ts reports over IPC: start it with an ipc channel");
  return new Promise((resolve) => send(message, undefined, undefined, () => resolve()));
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.unshift(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function bareHttp(bodyFile: string): Promise<void> {
  const body = fs.readFileSync(bodyFile);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end(body);
  });
  await report({ url: await listen(server) });
}

async function bareExpress(bodyFile: string): Promise<void> {
  const { default: express } = await import("express");
  const data = JSON.parse(fs.readFileSync(bodyFile, "utf8"));
  const app = express();
  app.get("/{*path}", (_req, res) => {
    res.json(data);
  });
  await report({ url: await listen(http.createServer(app)) });
}

/** Bulk SQL straight through the API's database module (which migrates it first). */
async function seed(databaseUrl: string, seedName: string, rows: number): Promise<void> {
  const { openDatabase } = await import("@collectibles/api/embed");
  const { seeds } = await import("./seeds.ts");
  const fill = seeds[seedName];
  if (!fill) throw new Error(`unknown seed ${seedName}; known: ${Object.keys(seeds).join(", ")}`);
  const database = await openDatabase({ url: databaseUrl, poolSize: 2 });
  try {
    await report({ seeded: await fill(database.db, rows) });
  } finally {
    await database.close();
  }
}

async function stop(): Promise<void> {
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.on("disconnect", stop);

try {
  if (mode === "bare-http") await bareHttp(args[0] ?? "");
  else if (mode === "bare-express") await bareExpress(args[0] ?? "");
  else if (mode === "seed") {
    await seed(args[0] ?? "", args[1] ?? "claims", Number(args[2] ?? 0));
    process.exit(0);
  } else throw new Error(`unknown mode ${mode}`);
} catch (error) {
  await report({ error: String((error as Error).stack ?? error) });
  await stop();
}
