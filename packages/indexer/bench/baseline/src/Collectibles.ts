/**
 * Baseline handlers: the same events as the indexer, doing nothing. Ponder still fetches, decodes
 * and orders every event, so the difference to the real app is what our handlers cost.
 */
import { ponder } from "ponder:registry";

ponder.on("Collectibles:CollectibleCreated", async () => {});
ponder.on("Collectibles:TransferSingle", async () => {});
ponder.on("Collectibles:TransferBatch", async () => {});
