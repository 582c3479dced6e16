/**
 * A local EVM chain: Foundry's anvil, whose Linux (and macOS) binary comes from the npm registry
 * (`@foundry-rs/anvil` and its platform package). With `stateFile` it reloads the chain from the
 * file at start and writes it back every `stateIntervalSeconds` and when stopped, each time whole
 * (anvilState.ts), so a restart continues the same chain, even after a kill; without it, every
 * start is a new empty chain.
 *
 * Its accounts are the well-known development ones (mnemonic `test test ... junk`), public
 * knowledge: a local chain only.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { prepareStateFile, type StateSnapshots, startStateSnapshots } from "./anvilState.ts";
import { freePort, type ManagedProcess, startProcess } from "./processes.ts";

export { UnreadableStateFile } from "./anvilState.ts";

/** The development mnemonic every anvil and Hardhat node funds. Never on a real chain. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";
/** The first accounts of that mnemonic (of DEV_ACCOUNT_COUNT funded with 10,000 ETH each). */
export const DEV_ACCOUNTS = [
  {
    address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  },
  {
    address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  },
  {
    address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    privateKey: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  },
  {
    address: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    privateKey: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  },
  {
    address: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
    privateKey: "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  },
] as const;
/** Account #0: deployer, admin and default minter of local deployments. */
export const DEV_ACCOUNT_0 = DEV_ACCOUNTS[0].address;
export const LOCAL_CHAIN_ID = 31_337;
/** How many of the mnemonic's accounts a new local chain funds. */
export const DEV_ACCOUNT_COUNT = 20;

export interface LocalChainOptions {
  /** A free port when absent. */
  port?: number;
  host?: string;
  chainId?: number;
  /** Reload the chain from this file at start; write it back periodically and when stopped. */
  stateFile?: string;
  /** How often the state file is written while running. Default 5 s. */
  stateIntervalSeconds?: number;
  /** Also write everything the node prints to this file. */
  logFile?: string;
}

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  port: number;
  process: ManagedProcess;
  /** Stops the node; with a state file, the chain is written to it first. */
  stop(): Promise<void>;
}

/** The anvil binary of this platform, as the registry installed it. */
export function anvilBinary(): string {
  const arch = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch];
  const wrapper = createRequire(import.meta.url).resolve("@foundry-rs/anvil/package.json");
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${arch}/package.json`;
  try {
    return path.join(path.dirname(createRequire(wrapper).resolve(platformPackage)), "bin/anvil");
  } catch {
    throw new Error(
      `No anvil binary for ${process.platform}-${process.arch}: the npm registry has Linux and ` +
        "macOS builds (@foundry-rs/anvil-<platform>). Install on one of those, or set RPC_URL.",
    );
  }
}

async function chainIdAt(rpcUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(2_000),
    });
    const { result } = (await response.json()) as { result?: string };
    return result === undefined ? undefined : Number(result);
  } catch {
    return undefined;
  }
}

/** Starts anvil and resolves once it answers `eth_chainId` with the expected chain id. */
export async function startLocalChain(options: LocalChainOptions = {}): Promise<LocalChain> {
  if (options.port !== undefined) return startAnvil(options, options.port);
  // A free port can be taken between finding it and anvil binding it: try another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAnvil(options, await freePort());
    } catch (error) {
      if (!/address already in use/i.test(String(error)) || attempt >= 3) throw error;
    }
  }
}

async function startAnvil(options: LocalChainOptions, port: number): Promise<LocalChain> {
  const host = options.host ?? "127.0.0.1";
  const chainId = options.chainId ?? LOCAL_CHAIN_ID;
  const args = ["--host", host, "--port", String(port), "--chain-id", String(chainId)];
  // Twenty funded accounts, as every Hardhat node has: tests give scenarios accounts of their own.
  args.push("--accounts", String(DEV_ACCOUNT_COUNT));
  // No past block's state on disk: anvil otherwise writes each one out under
  // ~/.foundry/anvil/tmp (5 GB for the claims benchmark's 5,000 blocks) and leaves the folder
  // behind when it is stopped hard. Blocks, transactions and logs are all kept; only reading
  // state at a block far in the past fails, which nothing here does.
  args.push("--max-persisted-states", "0");
  // anvil's own `--state` would write the file in place, and a kill while it writes loses it.
  if (options.stateFile && (await prepareStateFile(options.stateFile))) {
    args.push("--load-state", options.stateFile);
  }
  const node = startProcess({
    name: `anvil on port ${port}`,
    command: anvilBinary(),
    args,
    logFile: options.logFile,
    stopSignal: "SIGINT",
  });
  const rpcUrl = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
  try {
    await node.waitUntil(
      "answering JSON-RPC",
      async () => (await chainIdAt(rpcUrl)) !== undefined,
      60_000,
    );
  } catch (error) {
    await node.stop(2_000);
    throw error;
  }
  const answered = await chainIdAt(rpcUrl);
  if (answered !== chainId) {
    await node.stop(2_000);
    throw new Error(`${rpcUrl} answers chain ${answered}, expected ${chainId}`);
  }
  const snapshots: StateSnapshots | undefined = options.stateFile
    ? startStateSnapshots(rpcUrl, options.stateFile, (options.stateIntervalSeconds ?? 5) * 1000)
    : undefined;
  return {
    rpcUrl,
    chainId,
    port,
    process: node,
    async stop() {
      if (snapshots) {
        await snapshots.stop();
        // The last state, whole; a chain that no longer answers keeps its last snapshot.
        if (node.running()) await snapshots.write({ evenIfUnchanged: true }).catch(() => {});
      }
      await node.stop(10_000);
    },
  };
}
