/**
 * The relayer's ceilings on a real Hardhat node: fees never go above MAX_FEE_PER_GAS_GWEI, a
 * transaction unmined at the cap makes `/ready` answer 503 naming it until it is mined, and a
 * claim batch's gas limit is its estimate plus a hook budget per claim to a recipient with code,
 * never above `claimBatchGasCeiling` (batch size and hook budget).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  claimBatchGasCeiling,
  collectiblesAbi,
  DEFAULT_HOOK_GAS_BUDGET,
  encodeClaimRuns,
  uuidToBytes16,
} from "@collectibles/contracts";
import { gasBurnerReceiverMock, nonReceiverMock } from "@collectibles/contracts/testing";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { type Address, getAddress, type Hex, type PublicClient, parseGwei } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvError, parseEnv, relayerKeyOf } from "../env.ts";
import { type ChainAccounts, chainAccounts } from "../test/chainAccounts.ts";
import { until } from "../test/faults.ts";
import { startTestApp, type TestApp } from "../test/testApp.ts";
import { type ChainClient, createChainClient } from "./chainClient.ts";
import { type ClaimBatchCall, RevertedError } from "./contractCalls.ts";

let chain: LocalChain;
let deploymentsDir: string;
let contract: Address;
let client: PublicClient;

let on: ChainAccounts;
const rpc = (method: string, params: unknown[] = []) => on.rpc(method, params);
/** Account #10 deploys the test recipients; #0 is the relayer. */
const deploy = (artifact: { abi: readonly unknown[]; bytecode: Hex }, args: unknown[]) =>
  on.deployFrom(10, artifact, args);

beforeAll(async () => {
  chain = await startLocalChain();
  on = chainAccounts(chain.rpcUrl);
  client = on.client;
  deploymentsDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-ceilings-"));
  contract = (await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir })).address;
}, 60_000);

afterAll(async () => {
  await chain?.stop();
  if (deploymentsDir) fs.rmSync(deploymentsDir, { recursive: true, force: true });
});

function chainClient(maxFeePerGas?: bigint): ChainClient {
  return createChainClient({
    rpcUrl: chain.rpcUrl,
    chainId: 31337,
    contract,
    privateKey: relayerKeyOf({ CHAIN_ID: 31337, RELAYER_PRIVATE_KEY: undefined }),
    replaceAfterMs: 300,
    maxFeePerGas,
  });
}

const createCall = () =>
  ({
    functionName: "createCollectible",
    args: [
      uuidToBytes16(randomUUID()),
      uuidToBytes16(randomUUID()),
      "0x00000000000000000000000000000000" as Hex,
      1000n,
      { name: "Ceilings", description: "", image: "", mimeType: "" },
    ],
  }) as const;

describe("fee cap", () => {
  it("MAX_FEE_PER_GAS_GWEI defaults to 500 and must be a positive number of gwei", () => {
    expect(parseEnv({}).MAX_FEE_PER_GAS_GWEI).toBe("500");
    expect(parseEnv({ MAX_FEE_PER_GAS_GWEI: "1.5" }).MAX_FEE_PER_GAS_GWEI).toBe("1.5");
    for (const bad of ["0", "-1", "abc", "1e3", "1.0000000001"]) {
      expect(() => parseEnv({ MAX_FEE_PER_GAS_GWEI: bad }), bad).toThrow(EnvError);
      expect(() => parseEnv({ MAX_FEE_PER_GAS_GWEI: bad }), bad).toThrow(/MAX_FEE_PER_GAS_GWEI/);
    }
  });

  it("raises the fee of an unmined transaction up to the cap, never above, then reports it stuck until it is mined", async () => {
    const cap = parseGwei("3");
    const relayer = chainClient(cap);
    const call = createCall();
    const gas = await relayer.estimate(call);
    const nonce = await relayer.pendingNonce();
    await rpc("evm_setAutomine", [false]);
    try {
      const sent = await relayer.send(call, { gas, nonce });
      const stuck = await until("the transaction reported stuck at the cap", async () => {
        const [first] = relayer.stuckAtFeeCap();
        return first;
      });
      // Stuck where the cap leaves no replacement a node takes (10% more): at most the cap, and
      // within 10% of it.
      expect(stuck.nonce).toBe(nonce);
      expect(stuck.maxFeePerGas).toBeLessThanOrEqual(cap);
      expect(stuck.maxFeePerGas * 110n).toBeGreaterThan(cap * 100n);
      const pooled = await client.getTransaction({ hash: stuck.hash });
      expect(pooled.maxFeePerGas).toBe(stuck.maxFeePerGas);
      expect(stuck.hash).not.toBe(sent.hash); // it was raised before it reached the cap
      await rpc("evm_mine");
      const mined = await sent.mined;
      expect(mined.status).toBe("success");
      const tx = await client.getTransaction({ hash: mined.hash });
      expect(tx.maxFeePerGas).toBeLessThanOrEqual(cap);
      expect(relayer.stuckAtFeeCap()).toEqual([]);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  });

  describe("through the API", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        env: {
          RPC_URL: chain.rpcUrl,
          CHAIN_ID: "31337",
          DEPLOYMENTS_DIR: deploymentsDir,
          CONFIRM_TIMEOUT_MS: "0",
          TX_REPLACE_AFTER_MS: "1000",
          // Below what the node asks for at first (about 2.2 gwei): the first offer is the cap.
          MAX_FEE_PER_GAS_GWEI: "2",
        },
      });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    it("answers /ready 503 naming the relayer's transaction stuck at the fee cap, and 200 once it is mined", async () => {
      expect((await t.call("GET", "/ready")).status).toBe(200);
      const org = (await t.call("POST", "/organizations", { json: { name: "Fee Co" } })).body.data;
      await rpc("evm_setAutomine", [false]);
      let collectibleId: string;
      try {
        const created = await t.call("POST", "/collectibles", {
          json: { organization_id: org.id, name: "Stuck", total_count: 1 },
        });
        expect(created.status).toBe(202);
        collectibleId = created.body.data.id;
        const ready = await until("/ready to report the stuck transaction", async () => {
          const res = await t.call("GET", "/ready");
          return res.status === 503 ? res : undefined;
        });
        const relayerCheck = ready.body.error.details.find(
          (check: { name: string }) => check.name === "relayer",
        );
        expect(relayerCheck).toMatchObject({ status: "down", critical: true });
        expect(relayerCheck.message).toMatch(
          /^transaction 0x[0-9a-f]{64} \(nonce \d+\) stuck at the fee cap MAX_FEE_PER_GAS_GWEI=2 for \d+ s$/,
        );
        await rpc("evm_mine");
      } finally {
        await rpc("evm_setAutomine", [true]);
      }
      await until("/ready to be 200 again", async () =>
        (await t.call("GET", "/ready")).status === 200 ? true : undefined,
      );
      const collectible = await until("the collectible confirmed", async () => {
        const body = (await t.call("GET", `/collectibles/${collectibleId}`)).body.data;
        return body.status === "confirmed" ? body : undefined;
      });
      const tx = await client.getTransaction({ hash: collectible.transaction_hash });
      expect(tx.maxFeePerGas).toBeLessThanOrEqual(parseGwei("2"));
    });
  });
});

describe("claim batch gas limit", () => {
  const relayer = () => chainClient();
  let collectibleId: Hex;
  beforeAll(async () => {
    const call = createCall();
    collectibleId = call.args[0];
    const r = relayer();
    const sent = await r.send(call, { gas: await r.estimate(call), nonce: await r.pendingNonce() });
    await sent.mined;
  });

  const batch = (receivers: Address[]): ClaimBatchCall => ({
    functionName: "claimBatch",
    args: [
      encodeClaimRuns(
        receivers.map((to) => ({ collectibleId, claimId: uuidToBytes16(randomUUID()), to })),
      ),
    ],
  });
  /** The node's estimate of `call` from the relayer: what the gas limit adds its headroom to. */
  const nodeEstimate = (call: ClaimBatchCall) =>
    client.estimateContractGas({
      address: contract,
      abi: collectiblesAbi,
      account: relayer().address,
      ...call,
    });
  const fresh = (i: number) =>
    getAddress(`0x${(0xabc000 + i).toString(16).padStart(40, "0")}`) as Address;

  it("is the estimate with headroom for plain accounts, far below the ceiling", async () => {
    const call = batch(Array.from({ length: 20 }, (_, i) => fresh(i)));
    const limit = await relayer().claimBatchGasLimit(call);
    const estimate = await nodeEstimate(call);
    expect(limit).toBe((estimate * 12n) / 10n + 10_000n);
    expect(limit).toBeLessThan(claimBatchGasCeiling(20, DEFAULT_HOOK_GAS_BUDGET) / 2n);
  });

  it("adds a whole hook budget for each contract recipient, since a hook may spend more when mined", async () => {
    const refusing = await deploy(nonReceiverMock, []);
    const plain = await relayer().claimBatchGasLimit(batch([fresh(100), fresh(101)]));
    const withContract = await relayer().claimBatchGasLimit(batch([fresh(102), refusing]));
    expect(withContract - plain).toBeGreaterThan(DEFAULT_HOOK_GAS_BUDGET);
    expect(withContract).toBeLessThanOrEqual(claimBatchGasCeiling(2, DEFAULT_HOOK_GAS_BUDGET));
  });

  it("adds a hook budget for every claim to a receiver with code, not once per receiver", async () => {
    const refusing = await deploy(nonReceiverMock, []);
    const plains = Array.from({ length: 10 }, (_, i) => fresh(110 + i));
    const call = batch([...plains, refusing, refusing, refusing]);
    const limit = await relayer().claimBatchGasLimit(call);
    const estimate = await nodeEstimate(call);
    const budget = DEFAULT_HOOK_GAS_BUDGET + DEFAULT_HOOK_GAS_BUDGET / 16n;
    expect(limit).toBe((estimate * 12n) / 10n + 10_000n + 3n * budget);
    expect(limit).toBeLessThan(claimBatchGasCeiling(13, DEFAULT_HOOK_GAS_BUDGET));
  });

  it("never exceeds the ceiling for a batch whose recipient burns its budget, and the batch mines with only that claim skipped", async () => {
    const burner = await deploy(gasBurnerReceiverMock, [100_000_000n]);
    const call = batch([fresh(200), burner, fresh(201)]);
    const r = relayer();
    const limit = await r.claimBatchGasLimit(call);
    // Some nodes (Hardhat) cannot estimate such a batch and get the ceiling itself; anvil can.
    expect(limit).toBeLessThanOrEqual(claimBatchGasCeiling(3, DEFAULT_HOOK_GAS_BUDGET));
    const sent = await r.send(call, { gas: limit, nonce: await r.pendingNonce() });
    const mined = await sent.mined;
    expect(mined.status).toBe("success");
    expect(mined.skipped).toEqual([
      {
        collectibleId,
        claimId: expect.stringMatching(/^0x[0-9a-f]{32}$/),
        to: burner,
        reason: 1, // ReceiverGasExceeded
      },
    ]);
  });

  it("throws RevertedError with the contract's error when the whole batch would revert", async () => {
    const unknown: ClaimBatchCall = {
      functionName: "claimBatch",
      args: [
        encodeClaimRuns([
          {
            collectibleId: uuidToBytes16(randomUUID()),
            claimId: uuidToBytes16(randomUUID()),
            to: fresh(300),
          },
        ]),
      ],
    };
    await expect(relayer().claimBatchGasLimit(unknown)).rejects.toEqual(
      new RevertedError("UnknownCollectible"),
    );
  });
});
