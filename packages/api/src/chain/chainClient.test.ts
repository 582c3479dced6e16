/**
 * The chain client against a real local chain (anvil): a transaction that is not mined in time is
 * replaced by one with the same nonce and a higher fee, and the replacement is what gets mined; a
 * revert is told from an unreachable RPC; a claim batch's gas limit looks up the code of its
 * receivers but the service's own wallets.
 */

import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { DEFAULT_HOOK_GAS_BUDGET, encodeClaimRuns, uuidToBytes16 } from "@collectibles/contracts";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { type Address, createPublicClient, type Hex, http } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { relayerKeyOf } from "../env.ts";
import { type ChainClient, createChainClient } from "./chainClient.ts";
import { type ClaimBatchCall, RevertedError } from "./contractCalls.ts";

let chain: LocalChain;
let client: ChainClient;
let deploymentsDir: string;

beforeAll(async () => {
  chain = await startLocalChain();
  deploymentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-chain-client-"));
  const deployment = await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir });
  client = createChainClient({
    rpcUrl: chain.rpcUrl,
    chainId: 31337,
    contract: deployment.address,
    privateKey: relayerKeyOf({ CHAIN_ID: 31337, RELAYER_PRIVATE_KEY: undefined }),
    replaceAfterMs: 500,
  });
}, 60_000);

afterAll(async () => {
  await chain?.stop();
  if (deploymentsDir) fs.rmSync(deploymentsDir, { recursive: true, force: true });
});

const rpc = (method: string, params: unknown[] = []) =>
  fetch(chain.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  }).then((r) => r.json() as Promise<{ result: unknown }>);

const createCall = (id: string) =>
  ({
    functionName: "createCollectible",
    args: [
      uuidToBytes16(id),
      uuidToBytes16(randomUUID()),
      "0x00000000000000000000000000000000" as Hex,
      3n,
      { name: "Fee", description: "", image: "", mimeType: "" },
    ],
  }) as const;

it("replaces a transaction not mined in time with a higher fee and the same nonce", async () => {
  const call = createCall(randomUUID());
  const gas = await client.estimate(call);
  const nonce = await client.pendingNonce();
  await rpc("evm_setAutomine", [false]);
  try {
    const sent = await client.send(call, { gas, nonce });
    // Past replaceAfterMs the client re-signs with 25% higher fees; then a block is mined.
    await new Promise((r) => setTimeout(r, 1_500));
    await rpc("evm_mine");
    const mined = await sent.mined;
    expect(mined.status).toBe("success");
    expect(mined.hash).not.toBe(sent.hash);
    const viem = createPublicClient({ transport: http(chain.rpcUrl) });
    const [original, replacement] = await Promise.all([
      rpc("eth_getTransactionByHash", [sent.hash]),
      viem.getTransaction({ hash: mined.hash }),
    ]);
    expect(original.result).toBeNull(); // dropped from the pool, never mined
    expect(replacement.nonce).toBe(nonce);
    expect(await client.pendingNonce()).toBe(nonce + 1);
  } finally {
    await rpc("evm_setAutomine", [true]);
  }
});

/** A collectible created on the chain (mined), by the id it was created with. */
async function minedCollectible(): Promise<string> {
  const id = randomUUID();
  const call = createCall(id);
  const sent = await client.send(call, {
    gas: await client.estimate(call),
    nonce: await client.pendingNonce(),
  });
  await sent.mined;
  return id;
}

it("tells a revert (with the contract's error name) from an unreachable RPC", async () => {
  const id = await minedCollectible();
  const call = createCall(id);
  await expect(client.estimate(call)).rejects.toEqual(
    new RevertedError("CollectibleAlreadyExists"),
  );
  expect(await client.collectibleExists(id)).toBe(true);
  expect(await client.collectibleExists(randomUUID())).toBe(false);
  const dead = createChainClient({
    rpcUrl: "http://127.0.0.1:9",
    chainId: 31337,
    contract: client.contract,
    privateKey: relayerKeyOf({ CHAIN_ID: 31337, RELAYER_PRIVATE_KEY: undefined }),
    replaceAfterMs: 500,
  });
  const error = await dead.estimate(call).catch((e: unknown) => e);
  expect(error).not.toBeInstanceOf(RevertedError);
  await expect(dead.ping()).rejects.toThrow();
});

/** A JSON-RPC proxy to the chain that keeps the address of every `eth_getCode` it passes on. */
async function codeLookups(): Promise<{ url: string; asked: string[]; close(): void }> {
  const asked: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const calls = [JSON.parse(body)].flat() as { method: string; params: string[] }[];
    for (const call of calls) if (call.method === "eth_getCode") asked.push(`${call.params[0]}`);
    const answer = await fetch(chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, asked, close: () => server.close() };
}

it("asks the chain for the code of a claim batch's receivers, but not of the service's own wallets", async () => {
  const id = await minedCollectible();
  const rpcLog = await codeLookups();
  try {
    const through = createChainClient({
      rpcUrl: rpcLog.url,
      chainId: 31337,
      contract: client.contract,
      privateKey: relayerKeyOf({ CHAIN_ID: 31337, RELAYER_PRIVATE_KEY: undefined }),
      replaceAfterMs: 500,
    });
    const serviceWallets: Address[] = [
      "0x00000000000000000000000000000000000a11ce",
      "0x0000000000000000000000000000000000000b0b",
    ];
    // The contract itself as the third receiver: an account with code, whose hook may run.
    const call: ClaimBatchCall = {
      functionName: "claimBatch",
      args: [
        encodeClaimRuns(
          [...serviceWallets, client.contract].map((to) => ({
            collectibleId: uuidToBytes16(id),
            claimId: uuidToBytes16(randomUUID()),
            to,
          })),
        ),
      ],
    };
    const lower = (addresses: Address[]) => new Set(addresses.map((a) => a.toLowerCase()));
    const limit = await through.claimBatchGasLimit(call, lower(serviceWallets));
    expect(rpcLog.asked.map((a) => a.toLowerCase())).toEqual([client.contract.toLowerCase()]);
    // Its claim keeps its hook budget: without it the limit is the estimate's alone.
    const asIfNoCode = await through.claimBatchGasLimit(
      call,
      lower([...serviceWallets, client.contract]),
    );
    expect(limit - asIfNoCode).toBeGreaterThan(DEFAULT_HOOK_GAS_BUDGET);
  } finally {
    rpcLog.close();
  }
});
