/**
 * The relayer's view of the chain: reads of the Collectibles contract, gas estimates that tell a
 * revert apart from an unreachable RPC, and sending a signed transaction whose receipt is awaited
 * with fee replacement (same nonce, higher fee) when it is not mined in time.
 *
 * Transactions are signed locally, so the hash is known (and stored) before it is broadcast.
 * The private key stays in the viem account object: it is never logged or returned.
 */
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import {
  type Address,
  ContractFunctionRevertedError,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
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

export interface MinedTransaction {
  hash: Hex;
  blockNumber: bigint;
  status: "success" | "reverted";
}

export interface SentTransaction {
  hash: Hex;
  /** Resolves once one of the transaction's versions is mined. */
  mined: Promise<MinedTransaction>;
}

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
  | { functionName: "claim"; args: readonly [Hex, Hex, Address] }
  | {
      functionName: "claimBatch";
      args: readonly [readonly { collectibleId: Hex; claimId: Hex; to: Address }[]];
    };

export type ChainClient = ReturnType<typeof createChainClient>;

const ZERO_ID = "0x00000000000000000000000000000000" as Hex;

export const idOf = (uuid: string | null): Hex => (uuid ? uuidToBytes16(uuid) : ZERO_ID);

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

export function createChainClient(options: ChainClientOptions) {
  const { chainId, contract } = options;
  const pollMs = options.pollMs ?? (chainId === 31_337 ? 50 : 1_000);
  const transport = http(options.rpcUrl, {
    batch: { batchSize: 200, wait: 2 },
    retryCount: 0,
    timeout: 10_000,
  });
  const client = createPublicClient({ transport, pollingInterval: pollMs });
  const account = privateKeyToAccount(options.privateKey);

  async function estimate(call: ContractCall): Promise<bigint> {
    try {
      const gas = await client.estimateContractGas({
        abi: collectiblesAbi,
        address: contract,
        account: account.address,
        ...(call as { functionName: "claim"; args: readonly [Hex, Hex, Address] }),
      });
      // Headroom for state that changes between estimate and inclusion.
      return (gas * 12n) / 10n + 10_000n;
    } catch (error) {
      const reason = revertReasonOf(error);
      if (reason) throw new RevertedError(reason);
      throw error;
    }
  }

  async function receiptOf(hash: Hex): Promise<MinedTransaction | undefined> {
    try {
      const receipt = await client.getTransactionReceipt({ hash });
      return { hash, blockNumber: receipt.blockNumber, status: receipt.status };
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    }
  }

  /**
   * Signs `call` with `nonce` and broadcasts it; `mined` resolves with the receipt of whichever
   * version was mined. Past `replaceAfterMs` a version with fees 25% higher replaces it.
   * Rejects `mined` only when `signal` aborts.
   */
  async function send(
    call: ContractCall,
    { gas, nonce, signal }: { gas: bigint; nonce: number; signal?: AbortSignal },
  ): Promise<SentTransaction> {
    const data = encodeFunctionData({ abi: collectiblesAbi, ...call } as Parameters<
      typeof encodeFunctionData
    >[0]);
    let { maxFeePerGas, maxPriorityFeePerGas } = await client.estimateFeesPerGas();
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
      for (;;) {
        if (signal?.aborted) throw new Error("relayer stopped");
        await sleep(pollMs);
        try {
          for (const candidate of hashes) {
            const receipt = await receiptOf(candidate);
            if (receipt) return receipt;
          }
          if (Date.now() - sentAt > options.replaceAfterMs) {
            maxFeePerGas = (maxFeePerGas * 125n) / 100n;
            maxPriorityFeePerGas = (maxPriorityFeePerGas * 125n) / 100n;
            const replacement = await sign();
            sentAt = Date.now();
            hashes.push(keccak256(replacement));
            // "nonce too low" here means an earlier version was just mined: keep polling.
            await client.sendRawTransaction({ serializedTransaction: replacement }).catch(() => {});
          }
        } catch {
          // The RPC is unreachable: keep polling until it answers again (or the relayer stops).
        }
      }
    })();
    return { hash, mined };
  }

  return {
    address: account.address,
    chainId,
    contract,
    estimate,
    send,
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
