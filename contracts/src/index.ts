export {
  type ClaimInput,
  type ClaimRun,
  claimBatchGasCeiling,
  DEFAULT_HOOK_GAS_BUDGET,
  encodeClaimRuns,
  SkipReason,
} from "./claimBatch.ts";
export { collectiblesAbi } from "./generated/collectiblesAbi.ts";
export { bytes16ToUuid, splitTokenId, tokenIdHex, tokenIdOf, uuidToBytes16 } from "./tokenId.ts";
