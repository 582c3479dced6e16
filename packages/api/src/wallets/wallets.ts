/**
 * Service wallets: every organization and every user without their own address gets
 * m/44'/60'/0'/0/<index> of one HD mnemonic. Only the index (and the public address) is stored.
 *
 * The mnemonic lives only in this module's closure: it is not a property of any object, so it
 * cannot be serialised into a response, a log line or an error.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { mnemonicToSeedSync } from "@scure/bip39";
import { type Address, bytesToHex } from "viem";
import {
  english,
  generateMnemonic,
  HDKey,
  type LocalAccount,
  privateKeyToAccount,
} from "viem/accounts";
import { accountNodeOf, addressOf, FIRST_HARDENED_INDEX } from "./derive.ts";

export interface Wallets {
  /** The address at m/44'/60'/0'/0/<index>. */
  addressAt(index: number): Address;
  /**
   * Has the addresses from `index` on derived ahead of need, in a worker thread, so that a new
   * holder's address is ready when asked for (a derivation is some 0.23 ms of CPU, most of a new
   * holder's cost). Asking for an address prepares the ones after it, too.
   */
  prepareFrom(index: number): void;
  /**
   * The account that signs for the wallet at `index`: the service signs as the custodial holder
   * when it moves a user's tokens to their linked wallet (chain/homeSender.ts). The key stays
   * inside the viem account object (not a property of it): never logged or answered.
   */
  signerAt(index: number): LocalAccount;
  /** Whether the address at `index` is derived already (prepared, or asked for before). */
  has(index: number): boolean;
  /** Whether the worker thread runs: while it derives, and `idleMs` after. */
  workerRunning(): boolean;
  /** Stops the worker (a process that exits need not). */
  close(): Promise<void>;
  /** Index 0's address: public, identifies the mnemonic without revealing it. */
  readonly fingerprint: Address;
}

export interface WalletOptions {
  /** How many addresses to keep derived ahead of the highest asked for; 0: none (tests). */
  ahead?: number;
  /** How long the worker waits for another range, once it has none, before it stops. */
  idleMs?: number;
  /** Told once when addresses cannot be derived ahead; they are then derived when asked for. */
  onAheadUnavailable?: (reason: string) => void;
}

/** Derived addresses kept beyond those prepared ahead (a bound, not a target). */
const KEPT = 10_000;

/**
 * An idle worker holds its thread and 20–36 MiB of RSS, and a new one starts cold: 1,100
 * addresses took it 475 ms of CPU, against 344 ms for a worker that had derived before. A burst
 * of new holders asks for ranges far more often than this, so it keeps one worker; an API that
 * only reads has none some seconds after its head start.
 */
const WORKER_IDLE_MS = 10_000;

export function createWallets(mnemonic: string, options: WalletOptions = {}): Wallets {
  let ahead = options.ahead ?? 0;
  const idleMs = options.idleMs ?? WORKER_IDLE_MS;
  let preparedUpTo = 0;
  let worker: Worker | undefined;
  const stopAhead = (reason: string) => {
    ahead = 0;
    worker = undefined;
    options.onAheadUnavailable?.(reason);
  };
  // The worker is a TypeScript file the runtime must strip itself (Node 22.18 and later, or
  // earlier with --experimental-strip-types).
  if (ahead > 0 && !process.features.typescript) {
    stopAhead(`Node ${process.version} cannot run the address worker (TypeScript)`);
  }
  // Seed stretching (PBKDF2, 2048 rounds) happens once; each address is then a cheap derivation.
  const accountKey = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive("m/44'/60'/0'/0");
  // Derivation uses the public side; the private side signs only in `signerAt`.
  const account = accountNodeOf(accountKey);
  const cache = new Map<number, Address>();
  // Addresses asked of the worker and not back yet.
  let pending = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  const remember = (index: number, address: Address) => {
    if (cache.size > KEPT + ahead) {
      cache.clear();
      // What was prepared went with it: the next address asked for prepares again.
      preparedUpTo = 0;
    }
    cache.set(index, address);
  };

  const startWorker = () => {
    const started = new Worker(new URL("./addressWorker.ts", import.meta.url), {
      // The account's public key and chain code: enough to name addresses, not to sign.
      workerData: { publicKey: account.publicKey, chainCode: account.chainCode },
      // A small young generation: the worker keeps little, and it holds some 30 MiB less
      // for derivations some 10% slower.
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 64 },
    });
    // It must not keep the process alive, nor take it down: without it, addresses are
    // derived when asked for, as before.
    started.unref();
    started.on("message", ({ from, addresses }: { from: number; addresses: Address[] }) => {
      for (const [offset, address] of addresses.entries()) remember(from + offset, address);
      pending -= addresses.length;
      if (pending > 0) return;
      idleTimer = setTimeout(() => {
        if (worker !== started) return;
        worker = undefined;
        void started.terminate();
      }, idleMs).unref();
    });
    started.on("error", (error) => stopAhead(`the address worker failed: ${error.message}`));
    return started;
  };

  const prepareFrom = (index: number) => {
    // Asked again only once half of what was prepared is used up: ranges, not single indexes.
    if (ahead === 0 || index + ahead / 2 < preparedUpTo) return;
    const from = Math.max(index, preparedUpTo);
    preparedUpTo = Math.min(index + ahead, FIRST_HARDENED_INDEX);
    if (from >= preparedUpTo) return;
    clearTimeout(idleTimer);
    worker ??= startWorker();
    pending += preparedUpTo - from;
    worker.postMessage({ from, count: preparedUpTo - from });
  };

  // addressOf refuses an index outside the non-hardened range (RangeError).
  const addressAt = (index: number): Address => {
    let address = cache.get(index);
    if (!address) {
      address = addressOf(account, index);
      remember(index, address);
    }
    if (index > 0) prepareFrom(index + 1);
    return address;
  };
  const signerAt = (index: number): LocalAccount => {
    if (!Number.isInteger(index) || index <= 0 || index >= FIRST_HARDENED_INDEX) {
      throw new RangeError(`wallet index out of range: ${index}`);
    }
    const key = accountKey.deriveChild(index).privateKey;
    if (!key) throw new Error(`wallet index ${index} has no key`);
    return privateKeyToAccount(bytesToHex(key));
  };
  const has = (index: number) => cache.has(index);
  const workerRunning = () => worker !== undefined;
  const close = async () => {
    ahead = 0;
    clearTimeout(idleTimer);
    await worker?.terminate();
    worker = undefined;
  };
  return {
    addressAt,
    prepareFrom,
    signerAt,
    has,
    workerRunning,
    close,
    fingerprint: addressAt(0),
  };
}

/**
 * The local default: a mnemonic generated on first use and kept in `<dataDir>/mnemonic` with
 * mode 0600. Set WALLET_MNEMONIC in production instead.
 */
export function loadOrCreateMnemonic(file: string): { mnemonic: string; created: boolean } {
  try {
    const mnemonic = fs.readFileSync(file, "utf8").trim();
    fs.chmodSync(file, 0o600);
    return { mnemonic, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const mnemonic = generateMnemonic(english);
  fs.writeFileSync(file, `${mnemonic}\n`, { mode: 0o600, flag: "wx" });
  return { mnemonic, created: true };
}
