/**
 * viem for the claims benchmark. It is a dependency of the workspace packages, not of the root:
 * load the very ESM build the API uses (as lists/seeds.ts does with drizzle-orm), so the bench
 * adds no dependency of its own.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const apiRequire = createRequire(
  path.resolve(import.meta.dirname, "../../packages/api/package.json"),
);
// `viem` resolves to <viem>/_cjs/index.js for require(); its ESM build sits beside it.
const viemDir = path.resolve(path.dirname(apiRequire.resolve("viem")), "..");
const esm = (file: string) => pathToFileURL(path.join(viemDir, "_esm", file)).href;

export const viem = (await import(esm("index.js"))) as typeof import("viem");
export const viemAccounts = (await import(
  esm("accounts/index.js")
)) as typeof import("viem/accounts");
