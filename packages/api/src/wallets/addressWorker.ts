/**
 * The address worker (see `wallets.ts`): derives the addresses of a range of wallet indexes off
 * the request thread. It is given the account's public key and chain code only: it can name
 * addresses but holds no key that signs.
 */
import { parentPort, workerData } from "node:worker_threads";
import { accountNodeOf, addressOf } from "./derive.ts";

export interface AddressRange {
  from: number;
  count: number;
}

const account = accountNodeOf(workerData as { publicKey: Uint8Array; chainCode: Uint8Array });

/** Addresses sent back together: each is ready some milliseconds after it is derived. */
const CHUNK = 50;

parentPort?.on("message", ({ from, count }: AddressRange) => {
  for (let start = from; start < from + count; start += CHUNK) {
    const addresses: string[] = [];
    for (let index = start; index < Math.min(start + CHUNK, from + count); index++) {
      addresses.push(addressOf(account, index));
    }
    parentPort?.postMessage({ from: start, addresses });
  }
});
