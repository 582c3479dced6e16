/**
 * Sending a signed transaction and following it until mined: signed locally (so its hash is known
 * and stored before it is broadcast), replaced with higher fees (same nonce) when it is not mined
 * in time, never above the fee cap, and reported while stuck at the cap.
 */
import { collectiblesAbi } from "@collectibles/contracts";
import { type Address, encodeFunctionData, type Hex, keccak256, type PublicClient } from "viem";
import type { LocalAccount } from "viem/accounts";
import {
  type ContractCall,
  DroppedTransactionError,
  type MinedTransaction,
  type Payment,
  type SentTransaction,
  type StuckTransaction,
} from "./contractCalls.ts";

export interface SenderOptions {
  client: PublicClient;
  account: LocalAccount;
  chainId: number;
  contract: Address;
  pollMs: number;
  /** Replace a transaction not mined after this long. */
  replaceAfterMs: number;
  /** The highest max fee per gas (wei) ever offered; unset: no cap. */
  feeCap: bigint | undefined;
  /** The receipt of `hash` with what the contract skipped, or undefined while unmined. */
  receiptOf(hash: Hex): Promise<MinedTransaction | undefined>;
  /** Unmined this long, a transaction is checked against the account's nonces on the chain. */
  dropCheckAfterMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const min = (a: bigint, b: bigint) => (a < b ? a : b);

export function createTransactionSender(options: SenderOptions) {
  const { client, account, chainId, contract, pollMs, feeCap, receiptOf } = options;
  const capped = (fee: bigint) => (feeCap === undefined ? fee : min(fee, feeCap));
  const stuck = new Map<number, StuckTransaction>();
  /** Nonces sent and not yet mined, with the max fee per gas their latest version offers. */
  const unmined = new Map<number, bigint>();

  /**
   * Signs `call` (a contract call, or a payment of ether) with `nonce` (at `maxFeePerGas` when
   * given, else the chain's estimate, never above the cap) and broadcasts it; `mined` resolves with the receipt of whichever
   * version was mined. Past `replaceAfterMs` a version with fees 25% higher replaces it, never
   * above the fee cap; one the cap leaves no room to replace (less than the 10% bump nodes
   * require) is reported by `stuckAtFeeCap()` until it is mined. Rejects `mined` when `signal`
   * aborts, and with `DroppedTransactionError` when the chain can no longer mine it (the
   * relayer then reconciles and sends again from the chain's nonce).
   */
  async function send(
    call: ContractCall | Payment,
    how: { gas: bigint; nonce: number; signal?: AbortSignal; maxFeePerGas?: bigint },
  ): Promise<SentTransaction> {
    const { gas, nonce, signal } = how;
    const { to, data, value } =
      "functionName" in call
        ? {
            to: contract,
            data: encodeFunctionData({ abi: collectiblesAbi, ...call } as Parameters<
              typeof encodeFunctionData
            >[0]),
            value: 0n,
          }
        : { to: call.to, data: "0x" as Hex, value: call.value };
    const fees = await client.estimateFeesPerGas();
    let maxFeePerGas = capped(how.maxFeePerGas ?? fees.maxFeePerGas);
    let maxPriorityFeePerGas = min(fees.maxPriorityFeePerGas, maxFeePerGas);
    const sign = async () =>
      account.signTransaction({
        chainId,
        type: "eip1559",
        to,
        data,
        value,
        gas,
        nonce,
        maxFeePerGas,
        maxPriorityFeePerGas,
      });
    const first = await sign();
    const hash = keccak256(first);
    await client.sendRawTransaction({ serializedTransaction: first });

    const hashes: Hex[] = [hash];
    const minedVersion = async () => {
      for (const candidate of hashes) {
        const receipt = await receiptOf(candidate);
        if (receipt) return receipt;
      }
      return undefined;
    };
    unmined.set(nonce, maxFeePerGas);
    const mined = (async () => {
      const broadcastAt = Date.now();
      let sentAt = broadcastAt;
      let checkedNonceAt = broadcastAt;
      try {
        for (;;) {
          if (signal?.aborted) throw new Error("relayer stopped");
          await sleep(pollMs);
          try {
            const receipt = await minedVersion();
            if (receipt) return receipt;
            if (Date.now() - checkedNonceAt > options.dropCheckAfterMs) {
              checkedNonceAt = Date.now();
              await throwIfDropped(nonce, minedVersion);
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
            unmined.set(nonce, maxFeePerGas);
            maxPriorityFeePerGas = min((maxPriorityFeePerGas * 125n) / 100n, maxFeePerGas);
            const replacement = await sign();
            hashes.push(keccak256(replacement));
            // "nonce too low" here means an earlier version was just mined: keep polling.
            await client.sendRawTransaction({ serializedTransaction: replacement }).catch(() => {});
          } catch (error) {
            if (error instanceof DroppedTransactionError) throw error;
            // The RPC is unreachable: keep polling until it answers again (or the relayer stops).
          }
        }
      } finally {
        stuck.delete(nonce);
        unmined.delete(nonce);
      }
    })();
    return { hash, mined };
  }

  /**
   * Throws `DroppedTransactionError` when the chain cannot mine the transaction at `nonce` any
   * more: a later nonce of the account is mined while none of its versions is, or the chain's
   * next nonce counting pending transactions is at or below it (a gap the node will not fill).
   */
  async function throwIfDropped(
    nonce: number,
    minedVersion: () => Promise<MinedTransaction | undefined>,
  ): Promise<void> {
    const [latest, pending] = await Promise.all([
      client.getTransactionCount({ address: account.address, blockTag: "latest" }),
      client.getTransactionCount({ address: account.address, blockTag: "pending" }),
    ]);
    if (latest <= nonce && pending > nonce) return;
    // Mined between the receipt check and the nonce read: not dropped.
    if (latest > nonce && (await minedVersion())) return;
    throw new DroppedTransactionError(nonce, latest);
  }

  return {
    send,
    /** Transactions unmined at the fee cap past the replacement delay, oldest first. */
    stuckAtFeeCap(): StuckTransaction[] {
      return [...stuck.values()].sort((a, b) => a.since - b.since);
    },
    /** Transactions sent and not mined yet. */
    inFlight: (): number => unmined.size,
    /** The highest max fee per gas (wei) a transaction in flight offers; 0n when none is. */
    highestFeeInFlight(): bigint {
      let highest = 0n;
      for (const fee of unmined.values()) if (fee > highest) highest = fee;
      return highest;
    },
  };
}
