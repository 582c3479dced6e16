export { collectiblesAbi } from "./generated/collectiblesAbi.ts";
export { bytes16ToUuid, splitTokenId, tokenIdOf, uuidToBytes16 } from "./tokenId.ts";
