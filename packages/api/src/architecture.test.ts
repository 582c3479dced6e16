/**
 * The API's shape, checked on its sources so it cannot drift (issue 10): no import circle, no
 * import running up the layers, no route file importing another resource's route files, SQL only
 * in db/, handlers short, no file over 300 lines, no package reaching into another package's
 * src/ by relative path, and every package on one copy of viem.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const src = import.meta.dirname;
const repo = path.resolve(src, "../../..");
const MAX_FILE_LINES = 300;
const MAX_HANDLER_LINES = 15;

/**
 * The layers, top first: a module may import from its own layer and the layers below it, never
 * from one above (type-only imports included). A file belongs to the longest entry naming it.
 */
const LAYERS: readonly (readonly string[])[] = [
  // Entry points: the server, the embedded stack, the command-line tools.
  ["index.ts", "embed.ts", "cli/"],
  // Assembly: the app from its dependencies, the dependencies from the configuration.
  ["app.ts", "bootstrap.ts", "metrics.ts"],
  // Each resource's endpoints and handlers.
  ["routes/"],
  // A declaration becomes an Express route: validation, idempotency, the OpenAPI document.
  ["http/"],
  ["middleware/"],
  // Workers that run beside requests: the relayer and followers, the webhook sender.
  ["chain/", "webhookSender.ts"],
  // Views as JSON, and events presented through the services that read their objects.
  ["presenters/"],
  // The rules and transactions of each resource.
  ["services/"],
  // What every layer above is handed (database, chain, configuration, clock).
  ["deps.ts"],
  // Parts the services use: image storage, wallets, a webhook's destination, signature and POST.
  ["images/", "wallets/", "webhooks/"],
  ["errorCatalogue.ts"],
  // Tables and their queries, and the driver under them.
  ["db/"],
  // The API's JSON shapes (zod).
  ["schemas/"],
  // Types every layer speaks: scope, auth, event types.
  ["domain/"],
  ["lib/", "errors.ts", "env.ts", "logger.ts", "heap.ts"],
];

function layerOf(file: string): number {
  const name = rel(file);
  let best = { index: -1, length: 0 };
  LAYERS.forEach((entries, index) => {
    for (const entry of entries) {
      const match = entry.endsWith("/") ? name.startsWith(entry) : name === entry;
      if (match && entry.length > best.length) best = { index, length: entry.length };
    }
  });
  return best.index;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesUnder(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const rel = (file: string) => path.relative(src, file);
const sources = filesUnder(src);
const production = sources.filter(
  (f) => !/\.test(kit)?\.ts$/.test(f) && !rel(f).startsWith("test/"),
);
const text = new Map(sources.map((f) => [f, fs.readFileSync(f, "utf8")]));

/** The modules a file imports by relative path (type-only imports included: they still tie). */
function relativeImports(file: string): string[] {
  const found = (text.get(file) ?? "").matchAll(/(?:from|import)\s+"(\.{1,2}\/[^"]+)"/g);
  return [...found].map((m) => path.resolve(path.dirname(file), m[1] ?? ""));
}

describe("the API's module structure", () => {
  it("has no import circle among its modules", () => {
    const graph = new Map(
      production.map((f) => [f, relativeImports(f).filter((i) => text.has(i))]),
    );
    const circles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "visiting") {
        circles.push([...trail.slice(trail.indexOf(file)), file].map(rel).join(" -> "));
        return;
      }
      state.set(file, "visiting");
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of graph.keys()) visit(file, []);
    expect(circles).toEqual([]);
  });

  it("places every module in a layer", () => {
    expect(production.filter((f) => layerOf(f) < 0).map(rel)).toEqual([]);
  });

  it("never imports from a layer above its own", () => {
    const upward = production.flatMap((file) =>
      relativeImports(file)
        .filter((i) => text.has(i) && layerOf(i) < layerOf(file))
        .map((i) => `${rel(file)} imports ${rel(i)}`),
    );
    expect(upward).toEqual([]);
  });

  it("never has one resource's route files import another resource's", () => {
    const crossings = production
      .filter((f) => /^routes\/[^/]+\//.test(rel(f)))
      .flatMap((file) => {
        const resource = rel(file).split("/")[1];
        return relativeImports(file)
          .map(rel)
          .filter((i) => i.startsWith("routes/") && i.split("/").length > 2)
          .filter((i) => i.split("/")[1] !== resource)
          .map((i) => `${rel(file)} imports ${i}`);
      });
    expect(crossings).toEqual([]);
  });

  it("keeps SQL in db/: nothing else imports drizzle-orm or pg", () => {
    const outside = production
      .filter((f) => !rel(f).startsWith("db/"))
      .filter((f) => /from "(drizzle-orm(\/[^"]*)?|pg)"/.test(text.get(f) ?? ""))
      .map(rel);
    expect(outside).toEqual([]);
  });

  it(`keeps every handler within about ${MAX_HANDLER_LINES} lines`, () => {
    const long: string[] = [];
    const handlerFiles = production.filter(
      (f) =>
        // Every route module declares its endpoints with their handlers, and the conventional
        // endpoints' handlers are made beside their declarations.
        rel(f).startsWith("routes/") || rel(f) === "http/resourceEndpoints.ts",
    );
    for (const file of handlerFiles) {
      const lines = (text.get(file) ?? "").split("\n");
      lines.forEach((line, start) => {
        if (!/async \(/.test(line)) return;
        // The handler's body: from the brace after its arrow (its parameters may span lines and
        // hold braces of their own) to the one that closes it.
        const arrow = lines.findIndex((l, i) => i >= start && l.includes("=>"));
        const body = (lines[arrow] ?? "").slice((lines[arrow] ?? "").indexOf("=>") + 2);
        // An expression body (`=> call(...)`) is not a block to measure.
        if (arrow < 0 || !body.trimStart().startsWith("{")) return;
        let depth = 0;
        let opened = false;
        for (let end = arrow; end < lines.length; end++) {
          const whole = lines[end] ?? "";
          const code = end === arrow ? whole.slice(whole.indexOf("=>")) : whole;
          const codeLine = code.replace(/"(?:[^"\\]|\\.)*"|`[^`]*`/g, '""');
          for (const char of codeLine) {
            if (char === "{") [depth, opened] = [depth + 1, true];
            if (char === "}") depth--;
          }
          if (opened && depth <= 0) {
            if (end - arrow + 1 > MAX_HANDLER_LINES + 1) {
              long.push(`${rel(file)}:${start + 1} (${end - arrow + 1} lines)`);
            }
            return;
          }
        }
      });
    }
    expect(long).toEqual([]);
  });

  it(`has no file over ${MAX_FILE_LINES} lines, tests included`, () => {
    const over = sources
      .map((f) => ({ file: rel(f), lines: (text.get(f) ?? "").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${file}: ${lines}`);
    expect(over).toEqual([]);
  });
});

describe("package boundaries", () => {
  it("never imports another package's src/ by relative path", () => {
    const roots = ["packages", "bench", "deploy", "contracts", "scripts"].map((d) =>
      path.join(repo, d),
    );
    const offenders = roots
      .filter((d) => fs.existsSync(d))
      .flatMap(filesUnder)
      .filter((f) => !f.includes(`${path.sep}generated${path.sep}`))
      .filter((f) => /\.\.\/\.\.\/[a-z-]+\/src\//.test(fs.readFileSync(f, "utf8")))
      .map((f) => path.relative(repo, f));
    expect(offenders).toEqual([]);
  });

  // pnpm installs one copy of viem per set of its optional peers (zod); a package whose tree
  // offered another zod got its own copy, and the API loaded viem twice through the contracts
  // package (13 MiB of RSS). The API, the indexer, deploy and the contracts list zod 4.6.7 beside
  // viem to keep the one copy (e2e and bench resolve it without listing zod): this checks what
  // every package resolves, whatever it lists.
  it("resolves every package's viem to one installed copy, so a process loads viem once", () => {
    const copies = new Map<string, string[]>();
    for (const dir of ["packages", "bench", "deploy", "contracts"].flatMap(packageDirs)) {
      const viem = path.join(dir, "node_modules", "viem");
      if (!fs.existsSync(viem)) continue;
      const copy = path.relative(repo, fs.realpathSync(viem));
      copies.set(copy, [...(copies.get(copy) ?? []), path.relative(repo, dir)]);
    }
    expect(copies.size, JSON.stringify(Object.fromEntries(copies), null, 2)).toBe(1);
  });
});

/** `name` itself when it is a package, else the packages directly under it. */
function packageDirs(name: string): string[] {
  const dir = path.join(repo, name);
  if (fs.existsSync(path.join(dir, "package.json"))) return [dir];
  return fs
    .readdirSync(dir)
    .map((entry) => path.join(dir, entry))
    .filter((entry) => fs.existsSync(path.join(entry, "package.json")));
}
