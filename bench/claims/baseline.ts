/**
 * The claims benchmark's baseline: BENCH_CLAIMS claims sent straight to the contract with viem,
 * one `claim` transaction each, signed locally with the minter's key, BENCH_BASELINE_IN_FLIGHT
 * waiting for their receipts at once.
 *
 * Transactions reach the node in nonce order: signing and sending go through one queue, so a
 * later nonce never arrives before an earlier one (a node refuses or parks such a gap; an earlier
 * version raced its own nonces and then waited for receipts that could never come). Every wait
 * has a deadline, so the baseline always ends.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { relayerKeyOf } from "@collectibles/api/embed";
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import { type Percentiles, percentiles } from "../lib/stats.ts";
import { BASELINE_IN_FLIGHT, CLAIMS, log, now, sleep } from "./config.ts";
import { viem, viemAccounts } from "./viem.ts";

type Hex = `0x${string}`;

/** A transaction not mined within this is a failed baseline, not a hang. */
const RECEIPT_DEADLINE_MS = 120_000;

export interface BaselineResult {
  claims: number;
  inFlight: number;
  windowMs: number;
  claimsPerSecond: number;
  /** Signing and eth_sendRawTransaction until the node answers the hash, per transaction. */
  sendMs: Percentiles;
  /** Send to receipt, per transaction. */
  latencyMs: Percentiles;
  gasPerClaim: number;
}

export async function baseline(rpcUrl: string, contract: Hex): Promise<BaselineResult> {
  const { createPublicClient, encodeFunctionData, http } = viem;
  const account = viemAccounts.privateKeyToAccount(relayerKeyOf({ CHAIN_ID: 31337 }));
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  const chainId = await client.getChainId();
  const fees = await client.estimateFeesPerGas();
  let nonce = await client.getTransactionCount({ address: account.address, blockTag: "pending" });

  let queue: Promise<unknown> = Promise.resolve();
  /** Signs and sends behind every earlier send, so nonces reach the node in order. */
  function send(data: Hex, gas: bigint): Promise<Hex> {
    const sent = queue.then(async () => {
      const serializedTransaction = await account.signTransaction({
        type: "eip1559",
        chainId,
        to: contract,
        data,
        nonce,
        gas,
        maxFeePerGas: fees.maxFeePerGas * 2n,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      const hash = await client.sendRawTransaction({ serializedTransaction });
      nonce++;
      return hash;
    });
    queue = sent.catch(() => {});
    return sent;
  }
  async function receipt(hash: Hex) {
    const deadline = now() + RECEIPT_DEADLINE_MS;
    while (now() < deadline) {
      const found = await client.getTransactionReceipt({ hash }).catch(() => null);
      if (found) {
        if (found.status !== "success") throw new Error(`baseline transaction ${hash} reverted`);
        return found;
      }
      await sleep(20);
    }
    throw new Error(`baseline transaction ${hash} not mined within ${RECEIPT_DEADLINE_MS} ms`);
  }

  const collectibleId = uuidToBytes16(randomUUID());
  const create = encodeFunctionData({
    abi: collectiblesAbi,
    functionName: "createCollectible",
    args: [
      collectibleId,
      uuidToBytes16(randomUUID()),
      "0x00000000000000000000000000000000",
      BigInt(CLAIMS),
      { name: "Baseline", description: "", image: "", mimeType: "" },
    ],
  });
  await receipt(await send(create, 1_000_000n));

  const claims = Array.from({ length: CLAIMS }, () =>
    encodeFunctionData({
      abi: collectiblesAbi,
      functionName: "claim",
      args: [collectibleId, uuidToBytes16(randomUUID()), `0x${randomBytes(20).toString("hex")}`],
    }),
  );
  // Every claim to a fresh address costs the same: estimate once, with headroom, as a fast client
  // would, instead of once per transaction.
  const estimate = await client.estimateGas({
    account: account.address,
    to: contract,
    data: claims[0] as Hex,
  });
  const gas = (estimate * 12n) / 10n;

  const sends: number[] = [];
  const latencies: number[] = [];
  let gasUsed = 0n;
  let next = 0;
  const started = now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= claims.length) return;
      const sent = now();
      const hash = await send(claims[i] as Hex, gas);
      sends.push(now() - sent);
      const mined = await receipt(hash);
      latencies.push(now() - sent);
      gasUsed += mined.gasUsed;
      if ((i + 1) % 500 === 0) log(`baseline: ${i + 1}/${CLAIMS} claims sent`);
    }
  };
  await Promise.all(Array.from({ length: BASELINE_IN_FLIGHT }, worker));
  const windowMs = now() - started;
  const claimed = await client.readContract({
    address: contract,
    abi: collectiblesAbi,
    functionName: "claimedCount",
    args: [collectibleId],
  });
  if (claimed !== BigInt(CLAIMS)) throw new Error(`baseline minted ${claimed}, not ${CLAIMS}`);
  return {
    claims: CLAIMS,
    inFlight: BASELINE_IN_FLIGHT,
    windowMs: Math.round(windowMs),
    claimsPerSecond: CLAIMS / (windowMs / 1000),
    sendMs: percentiles(sends),
    latencyMs: percentiles(latencies),
    gasPerClaim: Number(gasUsed / BigInt(CLAIMS)),
  };
}
