/**
 * The relayer's view of the chain: reads of the Collectibles contract, gas estimates and limits
 * that tell a revert apart from an unreachable RPC, receipts with the claims the contract skipped,
 * and sending (`transactionSender.ts`). The private key stays in the viem account object: it is
 * never logged or returned.
 */
import { claimBatchGasCeiling, collectiblesAbi } from "@collectibles/contracts";
import {
  type Address,
  BlockNotFoundError,
  createPublicClient,
  type Hex,
  http,
  type PublicClient,
  parseEventLogs,
  size,
  TransactionReceiptNotFoundError,
} from "viem";
import { type LocalAccount, privateKeyToAccount } from "viem/accounts";
import {
  CLAIM_BYTES,
  type ClaimBatchCall,
  type ContractCall,
  GasCapExceededError,
  idOf,
  type MinedTransaction,
  RevertedError,
  revertReasonOf,
} from "./contractCalls.ts";
import { createTransactionSender } from "./transactionSender.ts";

/** A block of the chain: its number and hash (a reorg that replaces it changes the hash). */
export interface ChainBlock {
  number: bigint;
  hash: Hex;
}

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

export type ChainClient = ReturnType<typeof createChainClient>;

const min = (a: bigint, b: bigint) => (a < b ? a : b);

export function createChainClient(options: ChainClientOptions) {
  const { chainId, contract, maxFeePerGas: feeCap } = options;
  const pollMs = options.pollMs ?? (chainId === 31_337 ? 50 : 1_000);
  const transport = http(options.rpcUrl, {
    batch: { batchSize: 200, wait: 2 },
    retryCount: 0,
    timeout: 10_000,
  });
  const client = createPublicClient({ transport, pollingInterval: pollMs });
  const account = privateKeyToAccount(options.privateKey);
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

  /** `call`'s gas with headroom, sent by `from` (the relayer unless given). */
  async function estimate(call: ContractCall, from: Address = account.address): Promise<bigint> {
    try {
      const gas = await client.estimateContractGas({
        abi: collectiblesAbi,
        address: contract,
        account: from,
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
   * claim to a receiver with code (a contract or an EIP-7702-delegated account; a hook may spend
   * more when mined than when estimated, up to its budget, at each of its receiver's claims),
   * never above `claimBatchGasCeiling`, the most the batch can use whatever its receivers do.
   * Throws `RevertedError` when the batch would revert as a whole and `GasCapExceededError` when
   * even its estimate is above the ceiling.
   *
   * The chain is asked for the code of each receiver but those in `withoutCode` (lower case): the
   * service's own wallets, which cannot have any. A burst of claims by email is one `eth_getCode`
   * fewer per claim, which an RPC provider may charge for.
   */
  async function claimBatchGasLimit(
    call: ClaimBatchCall,
    withoutCode: ReadonlySet<string> = new Set(),
  ): Promise<bigint> {
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
    const distinct = [...new Set(receivers.map((to) => to.toLowerCase()))].filter(
      (address) => !withoutCode.has(address),
    );
    const codes = await Promise.all(
      distinct.map((address) => client.getCode({ address: address as Address })),
    );
    const withCode = new Set(
      distinct.filter((_, i) => codes[i] !== undefined && codes[i] !== "0x"),
    );
    // Every claim to a receiver with code calls its hook, which may spend its whole budget.
    const hooks = BigInt(receivers.filter((to) => withCode.has(to.toLowerCase())).length);
    return min(ceiling, (estimated * 12n) / 10n + 10_000n + hooks * (budget + budget / 16n));
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
      return {
        hash,
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash,
        status: receipt.status,
        skipped,
      };
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    }
  }

  const senderOptions = {
    client: client as PublicClient,
    chainId,
    contract,
    pollMs,
    replaceAfterMs: options.replaceAfterMs,
    feeCap,
    receiptOf,
    // Long enough that a transaction the node still holds shows in its pending nonce.
    dropCheckAfterMs: Math.max(2_000, pollMs * 20),
  };
  const sender = createTransactionSender({ ...senderOptions, account });

  return {
    address: account.address,
    chainId,
    contract,
    /** The fee cap in wei, as configured (undefined: none). */
    maxFeePerGas: feeCap,
    estimate,
    claimBatchGasLimit,
    hookGasBudget: hookBudget,
    send: sender.send,
    /** A transaction's receipt, or undefined while the chain has not mined it (or dropped it). */
    receiptOf,
    /** Sending as another account of the service (a user's service wallet), fee-capped alike. */
    senderFor: (signer: LocalAccount) =>
      createTransactionSender({ ...senderOptions, account: signer }),
    /** Reads the home sender makes: balances, nonces, fees, signatures (ERC-1271/6492). */
    reader: client as PublicClient,
    stuckAtFeeCap: sender.stuckAtFeeCap,
    transactionsInFlight: sender.inFlight,
    highestFeeInFlight: sender.highestFeeInFlight,
    /** Answers when the RPC does and serves the configured chain. */
    async ping(): Promise<void> {
      const id = await client.getChainId();
      if (id !== chainId) throw new Error(`RPC serves chain ${id}, expected ${chainId}`);
    },
    blockNumber: () => client.getBlockNumber({ cacheTime: 0 }),
    /** The chain's latest block. */
    async head(): Promise<ChainBlock> {
      const block = await client.getBlock({ blockTag: "latest" });
      return { number: block.number, hash: block.hash };
    },
    /** The canonical block at `number` (its hash), or undefined when the chain is shorter. */
    async blockAt(number: bigint): Promise<ChainBlock | undefined> {
      try {
        const block = await client.getBlock({ blockNumber: number });
        return { number: block.number, hash: block.hash };
      } catch (error) {
        if (error instanceof BlockNotFoundError) return undefined;
        throw error;
      }
    },
    /**
     * The chain's finalized block number: its `finalized` tag, or `depth` blocks below the head
     * where the chain has no such tag.
     */
    async finalizedBlock(depth: number): Promise<bigint> {
      try {
        return (await client.getBlock({ blockTag: "finalized" })).number;
      } catch {
        const head = await client.getBlockNumber({ cacheTime: 0 });
        return head > BigInt(depth) ? head - BigInt(depth) : 0n;
      }
    },
    /** Whether the contract has code on this chain. */
    async contractDeployed(): Promise<boolean> {
      const code = await client.getCode({ address: contract });
      return code !== undefined && code !== "0x";
    },
    /** The block a transaction was mined in, or undefined when this chain has no such one. */
    async minedIn(hash: Hex): Promise<bigint | undefined> {
      try {
        return (await client.getTransactionReceipt({ hash })).blockNumber;
      } catch (error) {
        if (error instanceof TransactionReceiptNotFoundError) return undefined;
        throw error;
      }
    },
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
