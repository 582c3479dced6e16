/**
 * What a program that runs the API inside itself needs (the benchmarks do; so could an operator's
 * own server): the app, its database, configuration and the parts `createApp` is built from.
 */
export { createApp } from "./app.ts";
export { loadWallets } from "./bootstrap.ts";
export { startChainServices } from "./chain/chainServices.ts";
export { createApiKey } from "./db/apiKeys.ts";
export { type Database, driverClientOf, openDatabase } from "./db/driver/client.ts";
export { parseEnv, relayerKeyOf } from "./env.ts";
export { boundHeapGrowth } from "./heap.ts";
export { LocalImageStorage } from "./images/imageStorage.ts";
export { createLogger } from "./logger.ts";
export { createWallets } from "./wallets/wallets.ts";
