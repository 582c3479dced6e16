/**
 * The relayer's view of the chain: reads of the Collectibles contract, gas estimates that tell a
 * revert apart from an unreachable RPC, and sending a signed transaction whose receipt is awaited
 * with fee replacement (same nonce, higher fee) when it is not mined in time, up to a fee cap.
 *
 * Transactions are signed locally, so the hash is known (and stored) before it is broadcast.
 * The private key stays in the viem account object: it is never logged or returned.
 */
import {
  type ClaimRun,
  claimBatchGasCeiling,
  collectiblesAbi,
  uuidToBytes16,
} from "@collectibles/contracts";
import {
  type Address,
  ContractFunctionRevertedError,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  parseEventLogs,
  size,
  TransactionReceiptNotFoundError,
  BaseError as ViemBaseError,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface ChainClientOptions {
  rpcUrl: string;
  chainId: number;
  contract: Address;
  privateKey: Hex;
  /** Replace a transaction not mined after this long. */
  replaceAfterMs: number;
  /** The highest max fee per gas (wei) ever offered; fee bumps stop there. Unset: no cap. */
  maxFeePerGas?: bigint;
  /** How often receipts are polled. Default 50 ms on chain 31337, else 1 s. */
  pollMs?: number;
}

/** The contract refused the call (in an estimate or in a mined transaction). */
export class RevertedError extends Error {
  override name = "RevertedError";
  constructor(readonly reason: string) {
    super(`reverted: ${reason}`);
  }
}

/** A call would need more gas than its ceiling allows; it is not sent. */
export class GasCapExceededError extends Error {
  override name = "GasCapExceededError";
  constructor(
    readonly estimate: bigint,
    readonly ceiling: bigint,
  ) {
    super(`needs ${estimate} gas, above the ceiling of ${ceiling}`);
  }
}

/** A claim of a mined `claimBatch` that the contract skipped (`ClaimSkipped`). */
export interface SkippedClaim {
  collectibleId: Hex;
  claimId: Hex;
  to: Address;
  /** `SkipReason` of `@collectibles/contracts`. */
  reason: number;
}

export interface MinedTransaction {
  hash: Hex;
  blockNumber: bigint;
  status: "success" | "reverted";
  /** Claims the transaction skipped instead of minting. */
  skipped: SkippedClaim[];
}

export interface SentTransaction {
  hash: Hex;
  /** Resolves once one of the transaction's versions is mined. */
  mined: Promise<MinedTransaction>;
}

/** A transaction unmined past the replacement delay although it already offers the fee cap. */
export interface StuckTransaction {
  nonce: number;
  /** Hash of its latest version. */
  hash: Hex;
  maxFeePerGas: bigint;
  /** When it was first found stuck (ms since the epoch). */
  since: number;
}

export type ClaimBatchCall = {
  functionName: "claimBatch";
  args: readonly [readonly ClaimRun[]];
};

export type ContractCall =
  | {
      functionName: "createCollectible";
      args: readonly [
        Hex,
        Hex,
        Hex,
        bigint,
        { name: string; description: string; image: string; mimeType: string },
      ];
    }
  | ClaimBatchCall;

export type ChainClient = ReturnType<typeof createChainClient>;

const ZERO_ID = "0x00000000000000000000000000000000" as Hex;

export const idOf = (uuid: string | null): Hex => (uuid ? uuidToBytes16(uuid) : ZERO_ID);

/** Bytes per packed claim in a `ClaimRun`. */
const CLAIM_BYTES = 36;

/** The revert's error name (or reason string), or undefined when `error` is not a revert. */
export function revertReasonOf(error: unknown): string | undefined {
  if (!(error instanceof ViemBaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    return reverted.data?.errorName ?? reverted.reason ?? "reverted";
  }
  const text = `${error.details ?? ""} ${error.shortMessage}`;
  if (/revert/i.test(text)) return "reverted";
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const min = (a: bigint, b: bigint) => (a < b ? a : b);

export function createChainClient(options: ChainClientOptions) {
  const { chainId, contract, maxFeePerGas: feeCap } = options;
  const capped = (fee: bigint) => (feeCap === undefined ? fee : min(fee, feeCap));
  const pollMs = options.pollMs ?? (chainId === 31_337 ? 50 : 1_000);
  const transport = http(options.rpcUrl, {
    batch: { batchSize: 200, wait: 2 },
    retryCount: 0,
    timeout: 10_000,
  });
  const client = createPublicClient({ transport, pollingInterval: pollMs });
  const account = privateKeyToAccount(options.privateKey);
  const stuck = new Map<number, StuckTransaction>();
  let hookGasBudget: Promise<bigint> | undefined;

  /** The contract's hook gas budget; it never changes, so it is read once. */
  function hookBudget(): Promise<bigint> {
    hookGasBudget ??= client
      .readContract({ abi: collectiblesAbi, address: contract, functionName: "hookGasBudget" })
      .catch((error: unknown) => {
        hookGasBudget = undefined;
        throw error;
      });
    return hookGasBudget;
  }

  async function estimate(call: ContractCall): Promise<bigint> {
    try {
      const gas = await client.estimateContractGas({
        abi: collectiblesAbi,
        address: contract,
        account: account.address,
        ...(call as ClaimBatchCall),
      });
      // Headroom for state that changes between estimate and inclusion.
      return (gas * 12n) / 10n + 10_000n;
    } catch (error) {
      const reason = revertReasonOf(error);
      if (reason) throw new RevertedError(reason);
      throw error;
    }
  }

  /**
   * The gas limit for a `claimBatch`: its estimate with headroom, plus one whole hook budget per
   * receiver with code (a hook may spend more when mined than when estimated, up to its budget),
   * never above `claimBatchGasCeiling`, the most the batch can use whatever its receivers do.
   * Throws `RevertedError` when the batch would revert as a whole and `GasCapExceededError` when
   * even its estimate is above the ceiling.
   */
  async function claimBatchGasLimit(call: ClaimBatchCall): Promise<bigint> {
    const [runs] = call.args;
    const receivers = runs.flatMap((run) => {
      const bytes = run.claims.slice(2);
      return Array.from(
        { length: size(run.claims) / CLAIM_BYTES },
        (_, i): Address => `0x${bytes.slice(i * 72 + 32, i * 72 + 72)}`,
      );
    });
    const budget = await hookBudget();
    const ceiling = claimBatchGasCeiling(receivers.length, budget);
    let estimated: bigint;
    try {
      estimated = await client.estimateContractGas({
        abi: collectiblesAbi,
        address: contract,
        account: account.address,
        ...call,
      });
    } catch (error) {
      const reason = revertReasonOf(error);
      if (reason) throw new RevertedError(reason);
      // Some nodes (Hardhat) refuse to estimate a transaction in which an inner call runs out of
      // gas, which is what a receiver over its hook budget does. The ceiling always suffices:
      // simulate with it, and send with it when the batch goes through.
      try {
        await client.simulateContract({
          abi: collectiblesAbi,
          address: contract,
          account: account.address,
          gas: ceiling,
          ...call,
        });
      } catch (simulated) {
        const why = revertReasonOf(simulated);
        if (why) throw new RevertedError(why);
        throw simulated;
      }
      return ceiling;
    }
    if (estimated > ceiling) throw new GasCapExceededError(estimated, ceiling);
    const codes = await Promise.all(
      [...new Set(receivers.map((to) => to.toLowerCase() as Address))].map((address) =>
        client.getCode({ address }),
      ),
    );
    const contracts = BigInt(codes.filter((code) => code !== undefined && code !== "0x").length);
    return min(ceiling, (estimated * 12n) / 10n + 10_000n + contracts * (budget + budget / 16n));
  }

  async function receiptOf(hash: Hex): Promise<MinedTransaction | undefined> {
    try {
      const receipt = await client.getTransactionReceipt({ hash });
      const ours = receipt.logs.filter(
        (log) => log.address.toLowerCase() === contract.toLowerCase(),
      );
      const skipped = parseEventLogs({
        abi: collectiblesAbi,
        eventName: "ClaimSkipped",
        logs: ours,
      }).map(({ args }) => ({ ...args }));
      return { hash, blockNumber: receipt.blockNumber, status: receipt.status, skipped };
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    }
  }

  /**
   * Signs `call` with `nonce` and broadcasts it; `mined` resolves with the receipt of whichever
   * version was mined. Past `replaceAfterMs` a version with fees 25% higher replaces it, never
   * above the fee cap; one the cap leaves no room to replace (less than the 10% bump nodes
   * require) is reported by `stuckAtFeeCap()` until it is mined. Rejects `mined` only when
   * `signal` aborts.
   */
  async function send(
    call: ContractCall,
    { gas, nonce, signal }: { gas: bigint; nonce: number; signal?: AbortSignal },
  ): Promise<SentTransaction> {
    const data = encodeFunctionData({ abi: collectiblesAbi, ...call } as Parameters<
      typeof encodeFunctionData
    >[0]);
    const fees = await client.estimateFeesPerGas();
    let maxFeePerGas = capped(fees.maxFeePerGas);
    let maxPriorityFeePerGas = min(fees.maxPriorityFeePerGas, maxFeePerGas);
    const sign = async () =>
      account.signTransaction({
        chainId,
        type: "eip1559",
        to: contract,
        data,
        gas,
        nonce,
        maxFeePerGas,
        maxPriorityFeePerGas,
      });
    const first = await sign();
    const hash = keccak256(first);
    await client.sendRawTransaction({ serializedTransaction: first });

    const mined = (async () => {
      const hashes: Hex[] = [hash];
      let sentAt = Date.now();
      try {
        for (;;) {
          if (signal?.aborted) throw new Error("relayer stopped");
          await sleep(pollMs);
          try {
            for (const candidate of hashes) {
              const receipt = await receiptOf(candidate);
              if (receipt) return receipt;
            }
            if (Date.now() - sentAt <= options.replaceAfterMs) continue;
            sentAt = Date.now();
            const nextFee = capped((maxFeePerGas * 125n) / 100n);
            if (nextFee * 100n < maxFeePerGas * 110n) {
              // The cap leaves no replacement a node would take (10% more at least): wait, and
              // say so until it is mined.
              const latest = hashes.at(-1) ?? hash;
              const since = stuck.get(nonce)?.since ?? Date.now();
              stuck.set(nonce, { nonce, hash: latest, maxFeePerGas, since });
              continue;
            }
            maxFeePerGas = nextFee;
            maxPriorityFeePerGas = min((maxPriorityFeePerGas * 125n) / 100n, maxFeePerGas);
            const replacement = await sign();
            hashes.push(keccak256(replacement));
            // "nonce too low" here means an earlier version was just mined: keep polling.
            await client.sendRawTransaction({ serializedTransaction: replacement }).catch(() => {});
          } catch {
            // The RPC is unreachable: keep polling until it answers again (or the relayer stops).
          }
        }
      } finally {
        stuck.delete(nonce);
      }
    })();
    return { hash, mined };
  }

  return {
    address: account.address,
    chainId,
    contract,
    /** The fee cap in wei, as configured (undefined: none). */
    maxFeePerGas: feeCap,
    estimate,
    claimBatchGasLimit,
    hookGasBudget: hookBudget,
    send,
    /** Transactions unmined at the fee cap past the replacement delay, oldest first. */
    stuckAtFeeCap(): StuckTransaction[] {
      return [...stuck.values()].sort((a, b) => a.since - b.since);
    },
    /** Answers when the RPC does and serves the configured chain. */
    async ping(): Promise<void> {
      const id = await client.getChainId();
      if (id !== chainId) throw new Error(`RPC serves chain ${id}, expected ${chainId}`);
    },
    blockNumber: () => client.getBlockNumber({ cacheTime: 0 }),
    pendingNonce: () =>
      client.getTransactionCount({ address: account.address, blockTag: "pending" }),
    async isClaimed(collectibleId: string, claimId: string): Promise<boolean> {
      return client.readContract({
        abi: collectiblesAbi,
        address: contract,
        functionName: "isClaimed",
        args: [idOf(collectibleId), idOf(claimId)],
      });
    },
    async collectibleExists(id: string): Promise<boolean> {
      try {
        await client.readContract({
          abi: collectiblesAbi,
          address: contract,
          functionName: "collectible",
          args: [idOf(id)],
        });
        return true;
      } catch (error) {
        if (revertReasonOf(error) === "UnknownCollectible") return false;
        throw error;
      }
    },
  };
}
