import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEV_ACCOUNT_0, DEV_ACCOUNTS, startLocalChain, UnreadableStateFile } from "./localChain.ts";
import { killAllProcesses, portAnswers, runToEnd, signalGroup, startProcess } from "./processes.ts";

const folder = mkdtempSync(path.join(tmpdir(), "devkit-chain-"));
afterAll(() => {
  killAllProcesses();
  rmSync(folder, { recursive: true, force: true });
});

async function rpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

const RECEIVER = "0x000000000000000000000000000000000000bEEF";

describe("startLocalChain", () => {
  it("starts anvil on the chain id asked for, funding the development accounts", async () => {
    const chain = await startLocalChain({ chainId: 424242 });
    expect(Number(await rpc<string>(chain.rpcUrl, "eth_chainId"))).toBe(424242);
    const accounts = await rpc<string[]>(chain.rpcUrl, "eth_accounts");
    expect(accounts.slice(0, DEV_ACCOUNTS.length)).toEqual(
      DEV_ACCOUNTS.map((account) => account.address.toLowerCase()),
    );
    await chain.stop();
  });

  it("continues the same chain after a restart with a state file: blocks, balances, hashes", async () => {
    const stateFile = path.join(folder, "state.json");
    const first = await startLocalChain({ stateFile });
    await rpc(first.rpcUrl, "eth_sendTransaction", [
      { from: DEV_ACCOUNT_0, to: RECEIVER, value: "0x1234" },
    ]);
    const block = await rpc<{ number: string; hash: string }>(
      first.rpcUrl,
      "eth_getBlockByNumber",
      ["latest", false],
    );
    await first.stop();
    expect(statSync(stateFile).size).toBeGreaterThan(0);

    const second = await startLocalChain({ stateFile });
    const again = await rpc<{ hash: string } | null>(second.rpcUrl, "eth_getBlockByNumber", [
      block.number,
      false,
    ]);
    expect(again?.hash).toBe(block.hash);
    expect(await rpc<string>(second.rpcUrl, "eth_getBalance", [RECEIVER, "latest"])).toBe("0x1234");
    await second.stop();
  });

  it("comes back with the genesis its block 1 names as parent, after Ctrl-C and after kill -9", async () => {
    // anvil's dump lists the genesis of each start beside the loaded one (anvilState.ts): without
    // the mending, one of these loads sooner or later brings back a genesis block 1 does not name.
    const stateFile = path.join(folder, "restarts.json");
    const genesisOf = async (rpcUrl: string) =>
      (await rpc<{ hash: string }>(rpcUrl, "eth_getBlockByNumber", ["0x0", false])).hash;
    let genesis: string | undefined;
    for (let start = 1; start <= 6; start++) {
      const chain = await startLocalChain({ stateFile, stateIntervalSeconds: 1 });
      if (start > 1) {
        const first = await rpc<{ parentHash: string }>(chain.rpcUrl, "eth_getBlockByNumber", [
          "0x1",
          false,
        ]);
        expect(await genesisOf(chain.rpcUrl), `start ${start}`).toBe(genesis);
        expect(first.parentHash, `start ${start}`).toBe(genesis);
      }
      genesis ??= await genesisOf(chain.rpcUrl);
      await rpc(chain.rpcUrl, "evm_mine");
      // Past the next interval dump, then stopped as Ctrl-C would, or killed.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      if (start % 2) await chain.stop();
      else {
        process.kill(chain.process.pid, "SIGKILL");
        await chain.process.exited;
      }
    }
  });

  it("starts a new empty chain without a state file", async () => {
    const chain = await startLocalChain();
    expect(await rpc<string>(chain.rpcUrl, "eth_getBalance", [RECEIVER, "latest"])).toBe("0x0");
    expect(Number(await rpc<string>(chain.rpcUrl, "eth_blockNumber"))).toBe(0);
    await chain.stop();
  });
});

describe("the local chain's state file", () => {
  it("is whole after a kill in the middle of writing it, and the chain loads from it", async () => {
    const stateFile = path.join(folder, "killed-writing.json");
    const writing = `${stateFile}.writing`;
    const script = [
      `import { startLocalChain } from ${JSON.stringify(new URL("./localChain.ts", import.meta.url).href)};`,
      `const chain = await startLocalChain({ stateFile: ${JSON.stringify(stateFile)}, stateIntervalSeconds: 1 });`,
      "console.log(chain.rpcUrl);",
      "setInterval(() => {}, 60_000);",
    ].join("\n");
    const owner = startProcess({
      name: "a process keeping a chain's state",
      command: process.execPath,
      args: ["--input-type=module", "-e", script],
    });
    const rpcUrl = (await owner.waitForLine(/^http:/, 60_000)).trim();
    // Some MB of blocks, so that a write lasts long enough to be caught in the middle.
    await rpc(rpcUrl, "anvil_mine", ["0x7d0"]);
    const kept = await rpc<{ hash: string }>(rpcUrl, "eth_getBlockByNumber", ["0x7d0", false]);
    const savedBlock = () =>
      existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, "utf8")).best_block_number : 0;
    await owner.waitUntil("the mined blocks written", async () => savedBlock() >= 2000, 30_000);
    // Each new block makes the next interval write again: kill the owner and its chain at once
    // while one is being written.
    const mining = setInterval(() => void rpc(rpcUrl, "evm_mine").catch(() => {}), 200);
    try {
      const deadline = Date.now() + 30_000;
      while (!existsSync(writing)) {
        if (Date.now() > deadline) throw new Error(`no write of ${stateFile} seen in 30 s`);
        await new Promise((resolve) => setImmediate(resolve));
      }
      signalGroup(owner.pid, "SIGKILL");
      await owner.exited;
    } finally {
      clearInterval(mining);
    }

    expect(() => JSON.parse(readFileSync(stateFile, "utf8"))).not.toThrow();
    const again = await startLocalChain({ stateFile });
    expect(Number(await rpc<string>(again.rpcUrl, "eth_blockNumber"))).toBeGreaterThanOrEqual(2000);
    const block = await rpc<{ hash: string }>(again.rpcUrl, "eth_getBlockByNumber", [
      "0x7d0",
      false,
    ]);
    expect(block.hash).toBe(kept.hash);
    await again.stop();
    expect(existsSync(writing)).toBe(false);
  });

  it("refuses a state file cut short, naming it, and leaves it as it was", async () => {
    const stateFile = path.join(folder, "cut-short.json");
    writeFileSync(stateFile, '{"block":{"number":"0x2"},"accounts":{"0xf39f');
    const refusal = await startLocalChain({ stateFile }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UnreadableStateFile);
    expect((refusal as Error).message).toContain(stateFile);
    expect(readFileSync(stateFile, "utf8")).toBe('{"block":{"number":"0x2"},"accounts":{"0xf39f');
  });
});

describe("startLocalChain failures and clean-up", () => {
  it("rejects with the node's own message when the port is taken", async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      await expect(startLocalChain({ port })).rejects.toThrow(/exited[\s\S]*in use/i);
    } finally {
      server.close();
    }
  });

  it("kills the node when the process that started it exits without stop()", async () => {
    const script = [
      `import { startLocalChain } from ${JSON.stringify(new URL("./localChain.ts", import.meta.url).href)};`,
      "const chain = await startLocalChain();",
      "console.log(chain.rpcUrl);",
      // No stop(): the exit hook must end the node.
    ].join("\n");
    const { code, output } = await runToEnd({
      name: "a script that forgets stop()",
      command: process.execPath,
      args: ["--input-type=module", "-e", script],
      timeoutMs: 60_000,
    });
    expect(code, output).toBe(0);
    const rpcUrl = output.trim().split("\n").at(-1) ?? "";
    expect(rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The node gets SIGKILL synchronously at exit; give the kernel a moment to reap it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await portAnswers(Number(new URL(rpcUrl).port))).toBe(false);
  });
});
