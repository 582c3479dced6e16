/**
 * Accounts of the well-known development mnemonic (`test test ... junk`) that every `hardhat node`
 * funds. Their keys are public: never use them on a real chain.
 */
export const ACCOUNT_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
export const ACCOUNT_1 = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const ACCOUNT_1_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
export const ACCOUNT_3 = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
export const ACCOUNT_4 = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
