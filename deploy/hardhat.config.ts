import contractsConfig from "@collectibles/contracts/hardhat.config";
import { defineConfig } from "hardhat/config";
const solidity = contractsConfig.solidity as any;
export default defineConfig({ ...contractsConfig, solidity: { ...solidity, npmFilesToBuild: ["@collectibles/contracts/contracts/Collectibles.sol"] } });
