import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

/** Just enough of a Hardhat runtime for the checks deployWithIgnition makes before it deploys. */
export function fakeHre(
  network: string | undefined,
  config: { type: string; chainId?: number; url?: string },
): HardhatRuntimeEnvironment {
  const { url, ...rest } = config;
  const networkConfig = { ...rest, url: { get: async () => url ?? "" } };
  return {
    globalOptions: { network },
    config: { networks: network ? { [network]: networkConfig } : {} },
  } as unknown as HardhatRuntimeEnvironment;
}
