import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";

const require = createRequire(import.meta.url);

/** The deploy package's folder (its Hardhat project root). */
export const deployRoot = fileURLToPath(new URL("../", import.meta.url));

/** The contracts package's folder, found through its package exports like any other import. */
export const contractsRoot = path.dirname(
  require.resolve("@collectibles/contracts/hardhat.config"),
);

/** Fully qualified name under which deploy/'s Hardhat build compiles the contract. */
export const COLLECTIBLES_FQN = "@collectibles/contracts/contracts/Collectibles.sol:Collectibles";

/** Source name prefix of the contracts package inside deploy/'s compiler input. */
const CONTRACTS_SOURCE_PREFIX = "npm/@collectibles/contracts@local/";

const artifactFile = path.join(
  deployRoot,
  "artifacts/@collectibles/contracts/contracts/Collectibles.sol/Collectibles.json",
);

/** The parts of a Hardhat 3 artifact this package uses. */
export interface CollectiblesArtifact {
  contractName: "Collectibles";
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  buildInfoId: string;
}

/** Hardhat 3 build info: the exact standard-JSON compiler input behind an artifact. */
export interface BuildInfo {
  solcVersion: string;
  solcLongVersion: string;
  input: {
    language: "Solidity";
    sources: Record<string, { content: string }>;
    settings: Record<string, unknown>;
  };
}

/**
 * Node >= 22 to run Hardhat on: this process's own when it is new enough (every `pnpm` script and
 * `pnpm exec` runs on the `node` devDependency), otherwise that devDependency's binary.
 */
export function node22(): string {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  for (let dir = deployRoot; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", "node", "bin", "node");
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(
    `Hardhat needs Node >= 22 and this is Node ${process.versions.node}; run through pnpm ` +
      "(its scripts use the Node 22 from the `node` devDependency) or install Node 22.",
  );
}

/** Hardhat's command-line entry as installed for the package at `root`. */
export function hardhatCli(root: string): string {
  const pkg = createRequire(path.join(root, "package.json")).resolve("hardhat/package.json");
  return path.join(path.dirname(pkg), "dist/src/cli.js");
}

/** Environment for a child Hardhat process: none of node:test's markers for its own children. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

export function buildInfoOf(artifact: CollectiblesArtifact): BuildInfo {
  return readJson<BuildInfo>(
    path.join(deployRoot, "artifacts/build-info", `${artifact.buildInfoId}.json`),
  );
}

/**
 * Whether deploy/artifacts holds a build of the contracts' current sources: every source of the
 * contracts package in the recorded compiler input equals the file on disk (dependencies are
 * pinned by version in their source names, so they cannot drift unnoticed).
 */
function isFresh(): boolean {
  if (!existsSync(artifactFile)) return false;
  try {
    const info = buildInfoOf(readJson<CollectiblesArtifact>(artifactFile));
    for (const [name, source] of Object.entries(info.input.sources)) {
      if (!name.startsWith(CONTRACTS_SOURCE_PREFIX)) continue;
      const file = path.join(contractsRoot, name.slice(CONTRACTS_SOURCE_PREFIX.length));
      if (!existsSync(file) || readFileSync(file, "utf8") !== source.content) return false;
    }
    return true;
  } catch {
    return false;
  }
}

function runBuild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      node22(),
      [hardhatCli(deployRoot), "build", "--build-profile", "production", "--quiet"],
      {
        cwd: deployRoot,
        env: childEnv(),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`\`hardhat build\` in ${deployRoot} failed (exit ${code}):\n${output}`)),
    );
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds deploy/artifacts when missing or stale. `pnpm test` and `pnpm build` build it beforehand
 * (turbo `build`), so this only runs when a suite is started on its own after a source change.
 * Test files run in parallel processes, so one build at a time: a lock folder in cache/.
 */
async function ensureBuilt(): Promise<void> {
  if (isFresh()) return;
  const lock = path.join(deployRoot, "cache", "build.lock");
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another process builds; a lock older than 3 minutes belongs to one that died.
      const age = existsSync(lock) ? Date.now() - statSync(lock).mtimeMs : 0;
      if (age > 180_000) rmdirSync(lock);
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lock}`);
      await sleep(250);
    }
  }
  try {
    if (!isFresh()) await runBuild();
  } finally {
    rmdirSync(lock);
  }
}

let built: Promise<void> | undefined;

/** The compiled Collectibles contract from deploy/artifacts, built first when needed. */
export async function collectiblesArtifact(): Promise<CollectiblesArtifact> {
  built ??= ensureBuilt();
  try {
    await built;
  } catch (error) {
    built = undefined;
    throw error;
  }
  return readJson<CollectiblesArtifact>(artifactFile);
}
