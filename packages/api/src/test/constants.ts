/** Hardhat's well-known development mnemonic: index 0 is 0xf39F...2266. Tests only. */
export const TEST_MNEMONIC = "test test test test test test test test test test test junk";
