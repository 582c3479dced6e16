/**
 * What a program that runs the API inside itself needs (the benchmarks do; so could an operator's
 * own server): the app, its database, configuration and the parts `createApp` is built from. A
 * program that serves the API also runs `startHousekeeping`, as index.ts does: it deletes expired
 * Idempotency-Key records and folds the changes that the count of every user is read from.
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
export { startHousekeeping } from "./services/housekeeping.ts";
export { createWallets } from "./wallets/wallets.ts";
