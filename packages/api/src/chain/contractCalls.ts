/**
 * What the relayer sends the Collectibles contract and what comes back: the calls, the mined
 * transaction with the claims the contract skipped, and the errors that tell a revert apart from
 * an unreachable RPC.
 */
import { type ClaimRun, uuidToBytes16 } from "@collectibles/contracts";
import {
  type Address,
  ContractFunctionRevertedError,
  type Hex,
  BaseError as ViemBaseError,
} from "viem";

/** The contract refused the call (in an estimate or in a mined transaction). */
export class RevertedError extends Error {
  override name = "RevertedError";
  readonly reason: string;
  constructor(reason: string) {
    super(`reverted: ${reason}`);
    this.reason = reason;
  }
}

/**
 * The chain will never mine this transaction: no version of it is mined and its nonce is taken
 * by another transaction, or the chain's next nonce is below it (a reorg dropped the account's
 * earlier transactions, or the node evicted them), so the node holds it behind a gap.
 */
export class DroppedTransactionError extends Error {
  override name = "DroppedTransactionError";
  readonly nonce: number;
  readonly chainNonce: number;
  constructor(nonce: number, chainNonce: number) {
    super(
      `transaction with nonce ${nonce} cannot be mined: the chain's next nonce is ${chainNonce}`,
    );
    this.nonce = nonce;
    this.chainNonce = chainNonce;
  }
}

/** A call would need more gas than its ceiling allows; it is not sent. */
export class GasCapExceededError extends Error {
  override name = "GasCapExceededError";
  readonly estimate: bigint;
  readonly ceiling: bigint;
  constructor(estimate: bigint, ceiling: bigint) {
    super(`needs ${estimate} gas, above the ceiling of ${ceiling}`);
    this.estimate = estimate;
    this.ceiling = ceiling;
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
  /** The block's hash: a reorg that replaces the block changes it (see chain/finality.ts). */
  blockHash: Hex;
  status: "success" | "reverted";
  /** Claims the transaction skipped instead of minting. */
  skipped: SkippedClaim[];
}

/** The block a transaction was mined in, as the intents record it. */
export const blockOf = (tx: MinedTransaction) => ({ number: tx.blockNumber, hash: tx.blockHash });

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

/** Ether sent to an address (the relayer funding a service wallet's gas). */
export interface Payment {
  to: Address;
  value: bigint;
}

/** A service wallet hands tokens on (`from` is the wallet that signs). */
export type TokenTransferCall =
  | {
      functionName: "safeTransferFrom";
      args: readonly [Address, Address, bigint, bigint, Hex];
    }
  | {
      functionName: "safeBatchTransferFrom";
      args: readonly [Address, Address, readonly bigint[], readonly bigint[], Hex];
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
  | ClaimBatchCall
  | TokenTransferCall;

const ZERO_ID = "0x00000000000000000000000000000000" as Hex;

export const idOf = (uuid: string | null): Hex => (uuid ? uuidToBytes16(uuid) : ZERO_ID);

/** Bytes per packed claim in a `ClaimRun`. */
export const CLAIM_BYTES = 36;

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
