/**
 * What every presenter needs besides the row: the chain's facts (its id, the contract) and where
 * image links point. Built once per request.
 */
import { getAddress } from "viem";
import type { AppDeps } from "../deps.ts";
import type { ImageStorage } from "../images/imageStorage.ts";

export interface PresentContext {
  /** `blockchain_id`: the chain id in hex. */
  blockchainId: string;
  /** The Collectibles contract, EIP-55; null when the API runs without a chain. */
  contractAddress: string | null;
  storage: ImageStorage;
  /** Where this API is reached, for image links. */
  baseUrl: string;
}

export function blockchainIdOf(chainId: number): string {
  return `0x${chainId.toString(16)}`;
}

export function presentContext(deps: AppDeps, baseUrl: string): PresentContext {
  return {
    blockchainId: blockchainIdOf(deps.config.CHAIN_ID),
    contractAddress: deps.chain ? getAddress(deps.chain.client.contract) : null,
    storage: deps.storage,
    baseUrl,
  };
}
