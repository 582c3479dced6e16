/**
 * How to call `claimBatch` and what to expect of it, for every package that sends or reads
 * claims: the packed calldata of a batch, the reasons a claim can be skipped, and the most gas a
 * batch can use, which a sender can set as a hard ceiling.
 */
import { type Address, concatHex, type Hex, isAddress, size } from "viem";

/** One claim: the token `tokenIdOf(collectibleId, claimId)` for `to`. */
export interface ClaimInput {
  collectibleId: Hex;
  claimId: Hex;
  to: Address;
}

/** `ICollectibles.ClaimRun`: the claims of one collectible, 36 packed bytes each. */
export interface ClaimRun {
  collectibleId: Hex;
  claims: Hex;
}

/**
 * `claimBatch`'s argument for `claims`, in order: consecutive claims of one collectible share a
 * run, each claim packed as `bytes16 claimId ‖ address to`. Sort claims by collectible first for
 * the fewest runs (the contract then reads and writes each supply counter once).
 */
export function encodeClaimRuns(claims: readonly ClaimInput[]): ClaimRun[] {
  const runs: { collectibleId: Hex; parts: Hex[] }[] = [];
  for (const claim of claims) {
    if (size(claim.claimId) !== 16)
      throw new TypeError(`claimId is not a bytes16: ${claim.claimId}`);
    if (!isAddress(claim.to, { strict: false })) throw new TypeError(`not an address: ${claim.to}`);
    const last = runs.at(-1);
    const run =
      last && last.collectibleId.toLowerCase() === claim.collectibleId.toLowerCase()
        ? last
        : runs[runs.push({ collectibleId: claim.collectibleId, parts: [] }) - 1];
    run?.parts.push(claim.claimId, claim.to);
  }
  return runs.map((run) => ({ collectibleId: run.collectibleId, claims: concatHex(run.parts) }));
}

/** `ICollectibles.SkipReason`, the `reason` of a `ClaimSkipped` event. */
export const SkipReason = {
  ReceiverRefused: 0,
  ReceiverGasExceeded: 1,
  AlreadyMinted: 2,
  SoldOut: 3,
} as const;

/** The hook gas budget the deploy tooling gives a new contract (`hookGasBudget()`). */
export const DEFAULT_HOOK_GAS_BUDGET = 50_000n;

/** Gas of a batch besides its claims: the transaction, the minter check, dispatch and decoding. */
const BATCH_BASE_GAS = 60_000n;
/**
 * Gas of one claim besides its hook's budget, in the worst case: a contract receiver not seen
 * before, minted in a self-call of its own run of a collectible not touched before, then undone
 * and reported (about 40,000 measured; GAS.md).
 */
const CLAIM_GAS = 50_000n;

/**
 * The most gas a `claimBatch` of `claims` claims can use, whatever the receivers do, when the
 * contract's `hookGasBudget()` is `hookGasBudget`: every claim may go to a contract whose hook
 * burns its whole budget. A batch sent with this gas limit never runs out of gas and never
 * reverts with `InsufficientGasForHook`; a sender can take it as a hard ceiling. The extra
 * sixteenth of the budget is the gas the 63/64 rule keeps back around each hook.
 */
export function claimBatchGasCeiling(claims: number, hookGasBudget: bigint): bigint {
  if (!Number.isInteger(claims) || claims < 1)
    throw new RangeError(`claims must be >= 1: ${claims}`);
  return BATCH_BASE_GAS + BigInt(claims) * (hookGasBudget + hookGasBudget / 16n + CLAIM_GAS);
}
