export { collectiblesAbi } from "./generated/collectiblesAbi.ts";
export { tokenIdOf, splitTokenId, uuidToBytes16, bytes16ToUuid } from "./tokenId.ts";
