/**
 * Assembles what `index.ts` and the key CLI need from the validated configuration: the database,
 * the wallets and the image storage, with the local defaults under `<DATA_DIR>/api`.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { countActiveApiKeys, createApiKey, ensureApiKey } from "./db/apiKeys.ts";
import { type Database, type DatabaseHandle, openDatabase } from "./db/driver/client.ts";
import { ensureSetting } from "./db/settings.ts";
import { upcomingWalletIndex } from "./db/walletIndexes.ts";
import type { ReadinessCheck } from "./deps.ts";
import { apiDataDir, type Env } from "./env.ts";
import { DatabaseImageStorage } from "./images/databaseImageStorage.ts";
import { type ImageStorage, LocalImageStorage } from "./images/imageStorage.ts";
import type { Logger } from "./logger.ts";
import { createWallets, loadOrCreateMnemonic, type Wallets } from "./wallets/wallets.ts";

/** The file where `pnpm start` writes how to reach the embedded PostgreSQL it runs. */
export function embeddedDatabaseUrlFile(env: Pick<Env, "DATA_DIR">): string {
  return path.join(env.DATA_DIR, "postgres", "url");
}

/** DATABASE_URL, else the embedded server of the local stack (`pnpm start`). */
export function databaseUrlOf(env: Pick<Env, "DATABASE_URL" | "DATA_DIR">): string {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const file = embeddedDatabaseUrlFile(env);
  if (!existsSync(file)) {
    throw new Error(
      `DATABASE_URL is not set and ${file} does not exist: start the local stack with ` +
        "`pnpm start` (it runs PostgreSQL and sets DATABASE_URL), or set DATABASE_URL",
    );
  }
  return readFileSync(file, "utf8").trim();
}

/** The configured PostgreSQL, migrated. */
export async function openConfiguredDatabase(env: Env): Promise<DatabaseHandle> {
  return openDatabase({ url: databaseUrlOf(env) });
}

export function databaseCheck(handle: DatabaseHandle): ReadinessCheck {
  return { name: "database", critical: true, check: () => handle.ping() };
}

/**
 * Images go into the database, where every API process on it serves them; images an earlier
 * release kept in `<DATA_DIR>/api/uploads` are still served from there.
 */
export function configuredImageStorage(env: Env, db: Database): ImageStorage {
  return new DatabaseImageStorage(db, new LocalImageStorage(path.join(apiDataDir(env), "uploads")));
}

export class WalletMismatchError extends Error {
  override name = "WalletMismatchError";
}

/**
 * Addresses a running API keeps derived ahead of the ones it has handed out: a burst of new
 * holders up to this size finds them ready, and the worker keeps up with a longer one.
 */
const WALLETS_AHEAD = 2_000;

/**
 * Wallets from WALLET_MNEMONIC, or from the mnemonic kept in the data folder (generated on first
 * start). The database remembers which mnemonic derived its wallets (by the public address at
 * index 0) and refuses to start with another one, which would hand out foreign addresses.
 */
export async function loadWallets(
  env: Env,
  db: Database,
  logger?: Logger,
): Promise<{ wallets: Wallets; mnemonicFile?: string; created: boolean }> {
  let mnemonic = env.WALLET_MNEMONIC;
  let mnemonicFile: string | undefined;
  let created = false;
  if (!mnemonic) {
    mnemonicFile = path.join(apiDataDir(env), "mnemonic");
    ({ mnemonic, created } = loadOrCreateMnemonic(mnemonicFile));
  }
  const wallets = createWallets(mnemonic, {
    ahead: WALLETS_AHEAD,
    onAheadUnavailable: (reason) =>
      logger?.warn(`${reason}: wallet addresses are derived when a holder is created`),
  });
  const stored = await ensureSetting(db, "wallet_fingerprint", wallets.fingerprint);
  if (stored !== wallets.fingerprint) {
    throw new WalletMismatchError(
      `WALLET_MNEMONIC: this database's wallets were derived from another mnemonic ` +
        `(fingerprint ${stored}, this one is ${wallets.fingerprint}). ` +
        (mnemonicFile ? `The local mnemonic is in ${mnemonicFile}.` : "Set the original one."),
    );
  }
  // Only a head start: without the sequence's position, the first new holder starts it.
  const upcoming = await upcomingWalletIndex(db).catch((error: Error) => {
    logger?.warn({ err: error.message }, "could not read the next wallet index at start");
    return undefined;
  });
  if (upcoming !== undefined) wallets.prepareFrom(upcoming);
  return { wallets, mnemonicFile, created };
}

/**
 * The key a newcomer uses: API_KEY when set (added if unknown), else a fresh key on the first
 * start of an empty installation. The clear key is returned only when it must be shown.
 */
export async function bootstrapApiKey(
  env: Env,
  db: Database,
): Promise<{ status: "from_env" | "created" | "existing"; key?: string }> {
  if (env.API_KEY) {
    const result = await ensureApiKey(db, env.API_KEY, "API_KEY from the environment");
    if (result === "revoked") {
      throw new Error("API_KEY: this key was revoked; set another one or unset API_KEY");
    }
    return { status: "from_env" };
  }
  if ((await countActiveApiKeys(db)) > 0) return { status: "existing" };
  const { key } = await createApiKey(db, { name: "created at first start" });
  return { status: "created", key };
}
