/**
 * The chain client against a real Hardhat node: a transaction that is not mined in time is
 * replaced by one with the same nonce and a higher fee, and the replacement is what gets mined.
 */

import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { uuidToBytes16 } from "@collectibles/contracts";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { createPublicClient, type Hex, http } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { relayerKeyOf } from "../env.ts";
import { type ChainClient, createChainClient } from "./chainClient.ts";
import { RevertedError } from "./contractCalls.ts";

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

it("tells a revert (with the contract's error name) from an unreachable RPC", async () => {
  const id = randomUUID();
  const call = createCall(id);
  const sent = await client.send(call, {
    gas: await client.estimate(call),
    nonce: await client.pendingNonce(),
  });
  await sent.mined;
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
