/**
 * Hardhat plugin that makes every Solidity compiler warning fail the build, for contracts and
 * tests alike. Hardhat 3 has no setting for this (it prints warnings and carries on), so the
 * plugin hooks the compiler call and re-labels each warning as an error before Hardhat decides
 * whether the compilation succeeded. A failed compilation writes no artifacts and no cache entry,
 * so the warning is reported again on the next build until it is fixed.
 */
import type { HardhatPlugin } from "hardhat/types/plugins";

const warningsAsErrors: HardhatPlugin = {
  id: "collectibles-warnings-as-errors",
  hookHandlers: {
    solidity: () => import("./warningsAsErrorsHooks.ts"),
  },
};

export default warningsAsErrors;
