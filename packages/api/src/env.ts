/**
 * The API's configuration: the only module that reads `process.env`.
 *
 * Every variable is validated once at start-up; a bad value stops the process with a message that
 * names the variable. Tests build a configuration with `parseEnv({ ... })` instead.
 */
import path from "node:path";
import { validateMnemonic } from "@scure/bip39";
import { wordlist as english } from "@scure/bip39/wordlists/english";
import { mnemonicToAccount, privateKeyToAddress } from "viem/accounts";
import { z } from "zod";

/** The monorepo root (packages/api/src -> ../../..), where the shared `.data` folder lives. */
const repoRoot = path.resolve(import.meta.dirname, "../../..");

const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** TCP port of the HTTP server; 0 picks a free one. */
  PORT: int(0, 65_535).default(3000),
  /** Interface to listen on: loopback by default, `0.0.0.0` in a container. */
  HOST: z.string().min(1).default("127.0.0.1"),
  /** Root of local state shared by the packages; the API keeps its own under `<DATA_DIR>/api`. */
  DATA_DIR: z.string().min(1).default(path.join(repoRoot, ".data")),
  /**
   * PostgreSQL connection string. Unset: the embedded server `pnpm start` runs in
   * `<DATA_DIR>/postgres` (its `url` file), which must be running.
   */
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" })
      .optional(),
  ),
  /** BIP-39 mnemonic all service wallets derive from. Unset: generated once into the data folder. */
  WALLET_MNEMONIC: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .transform((value) => value.trim().split(/\s+/).join(" "))
      .refine(isValidMnemonic, "must be a valid English BIP-39 mnemonic (12 to 24 words)")
      .optional(),
  ),
  /** EVM chain id; answered as `blockchain_id` in hex. 31337 is the local Hardhat chain. */
  CHAIN_ID: int(1, Number.MAX_SAFE_INTEGER).default(31_337),
  /** A key to accept at start (created if unknown). Unset: one is created on the first start. */
  API_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(
        /^ck_[a-z]+_[A-Za-z0-9]{24,}$/,
        "must look like ck_live_ followed by at least 24 letters or digits",
      )
      .optional(),
  ),
  /** Base URL clients reach the API at, for image links. Unset: the address the API listens on. */
  PUBLIC_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/ })
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
  ),
  /** Largest accepted image (logo, cover), in bytes, after base64 decoding. */
  MAX_IMAGE_BYTES: int(1024, 50 * 1024 * 1024).default(5 * 1024 * 1024),
  /** Largest JSON body for requests that carry no image, in bytes. */
  MAX_JSON_BYTES: int(1024, 10 * 1024 * 1024).default(100 * 1024),
  /** Requests each API key may make per window before answering 429. */
  RATE_LIMIT_MAX: int(1, 1_000_000).default(600),
  RATE_LIMIT_WINDOW_MS: int(1000, 24 * 60 * 60 * 1000).default(60_000),
  /**
   * A key's GET requests one API process reads, presents and sends at once; the others wait
   * their turn in order. A page costs the event loop a few milliseconds: with every client's
   * read in flight together, a claim's transaction waited behind all of them at each of its round
   * trips. Writes take no turn; the database is kept busy by these few. A turn may hold one of
   * the process's 10 database connections: at most 6, so reads alone never hold the pool that
   * claims (up to 4 transactions at once) and the relayer need.
   */
  READ_CONCURRENCY: int(1, 6).default(3),
  /** Requests per window one client address may make without a valid key before 429. */
  ANONYMOUS_RATE_LIMIT_MAX: int(1, 1_000_000).default(60),
  /**
   * Which proxies' X-Forwarded-For to believe for the client address: unset, none (the peer is
   * the client); a number of hops, or a comma-separated list of addresses or subnets.
   */
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** JSON-RPC URL of the chain. Unset: no chain; collectibles and claims answer 503. */
  RPC_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^(https?|wss?)$/ }).optional()),
  /** Folder of `<chainId>.json` deployment files (deploy/deployments when unset). */
  DEPLOYMENTS_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** Base URL of the indexer (Ponder). Unset: claims count as confirmed once mined. */
  INDEXER_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  /**
   * Private key of the relayer account (holds the contract's minter role). On chain 31337 with
   * none set, Hardhat's well-known account #0; required on every other chain.
   */
  RELAYER_PRIVATE_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
      .optional(),
  ),
  /** How long an Idempotency-Key's record counts (a retry later executes again). */
  IDEMPOTENCY_TTL_HOURS: int(1, 24 * 365).default(24),
  /**
   * `1`: at start, check every object recorded as mined against the chain (the local stack sets it
   * after an unclean stop, when the chain may have lost its last seconds). What the chain lacks is
   * pending again: on the local chain (31337) it is sent again; on any other chain the relayer
   * stops and `/ready` answers 503 naming the problem.
   */
  CHAIN_AUDIT: z
    .enum(["0", "1"])
    .default("0")
    .transform((value) => value === "1"),
  /**
   * `1`: webhooks may point at private, loopback and link-local addresses (a receiver on the same
   * network, tests). Off by default: a key holder could otherwise make the service call into the
   * network it runs in.
   */
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: z
    .enum(["0", "1"])
    .default("0")
    .transform((value) => value === "1"),
  /** How long one webhook delivery may take before it counts as failed. */
  WEBHOOK_TIMEOUT_MS: int(100, 60_000).default(10_000),
  /** The first retry's delay; each next one doubles (with jitter), up to an hour. */
  WEBHOOK_RETRY_BASE_MS: int(10, 3_600_000).default(5_000),
  /** A message still failing this long after its event is marked failed. */
  WEBHOOK_RETRY_FOR_HOURS: int(1, 24 * 30).default(24),
  /** A webhook whose deliveries all failed for this long is disabled (and says why). */
  WEBHOOK_DISABLE_AFTER_HOURS: int(1, 24 * 365).default(5 * 24),
  /** `/ready` answers 503 once the indexer is more blocks behind the chain than this... */
  READY_MAX_LAG_BLOCKS: int(0, 1_000_000).default(20),
  /**
   * ...or the chain does not answer, or an object mined in a block the indexer has passed stays
   * pending, for longer than this many seconds.
   */
  READY_LAG_GRACE_SECONDS: int(0, 86_400).default(30),
  /** How long POST /collectibles and /claims wait for confirmation before answering 202. */
  CONFIRM_TIMEOUT_MS: int(0, 600_000).default(5_000),
  /** How long a client may take to send its whole request (headers and body) before 408. */
  REQUEST_TIMEOUT_MS: int(1_000, 600_000).default(30_000),
  /** Most claims in one claimBatch transaction. */
  RELAYER_BATCH_SIZE: int(1, 500).default(100),
  /** Batch transactions in flight at once (consecutive nonces). */
  RELAYER_MAX_IN_FLIGHT: int(1, 64).default(8),
  /**
   * Blocks below the head that count as final on a chain without a `finalized` block tag (a
   * chain with one, anvil included, is followed by its tag).
   */
  FINALITY_DEPTH: int(1, 100_000).default(64),
  /**
   * Blocks that must be mined on top of a row's block before it is confirmed (and POST answers
   * 201): 0 confirms once the indexer has the block.
   */
  CONFIRMATION_DEPTH: int(0, 100_000).default(0),
  /** A transaction not mined after this long is replaced with a higher fee (same nonce). */
  TX_REPLACE_AFTER_MS: int(1_000, 3_600_000).default(60_000),
  /**
   * Highest max fee per gas the relayer ever offers, in gwei (decimals allowed): fee bumps stop
   * there, and a transaction still unmined at it makes `/ready` answer 503 (stuck at the cap).
   */
  MAX_FEE_PER_GAS_GWEI: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,9})?$/, "must be a positive number of gwei, e.g. 500 or 1.5")
    .refine((value) => Number(value) > 0, "must be a positive number of gwei, e.g. 500 or 1.5")
    .default("500"),
  /** How long a wallet-link nonce (and the Sign-In with Ethereum message over it) can be used. */
  WALLET_LINK_NONCE_TTL_SECONDS: int(1, 86_400).default(600),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Env = z.output<typeof EnvSchema>;

/** Raised when the configuration is invalid; its message names every bad variable. */
export class EnvError extends Error {
  override name = "EnvError";
}

/** Validates a configuration source (defaults to `process.env`) or throws an {@link EnvError}. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(config)"}: ${issue.message}`,
    );
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (env.NODE_ENV === "production" && !env.WALLET_MNEMONIC) {
    throw new EnvError(
      "Invalid configuration:\n  WALLET_MNEMONIC: required when NODE_ENV=production " +
        "(a generated mnemonic in a local folder is too easy to lose)",
    );
  }
  if (env.RPC_URL && !env.RELAYER_PRIVATE_KEY && env.CHAIN_ID !== HARDHAT_CHAIN_ID) {
    throw new EnvError(
      "Invalid configuration:\n  RELAYER_PRIVATE_KEY: required with RPC_URL on chain " +
        `${env.CHAIN_ID} (only the local chain 31337 has a default development key)`,
    );
  }
  // The key is checked where the relayer takes it too; here, so the start stops naming it.
  if (env.RPC_URL) relayerKeyOf(env);
  return env;
}

export const HARDHAT_CHAIN_ID = 31_337;
/** Hardhat's account #0: public knowledge, so only ever used on the local chain 31337. */
const HARDHAT_ACCOUNT_0_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

/** The development mnemonic of Hardhat and anvil: its keys are public knowledge. */
const DEVELOPMENT_MNEMONIC = "test test test test test test test test test test test junk";
/** Accounts the local chains fund from it (anvil 10, Hardhat 20). */
const DEVELOPMENT_ACCOUNTS = 20;

/** Whether `key` is one of the development mnemonic's accounts, whose keys anyone can read. */
function isDevelopmentKey(key: `0x${string}`): boolean {
  const address = privateKeyToAddress(key);
  for (let addressIndex = 0; addressIndex < DEVELOPMENT_ACCOUNTS; addressIndex++) {
    if (mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex }).address === address) return true;
  }
  return false;
}

/**
 * The relayer's key: RELAYER_PRIVATE_KEY, or Hardhat's account #0 on chain 31337. Outside 31337
 * a development account's key is refused: anyone could spend its funds and its minter role.
 */
export function relayerKeyOf(env: Pick<Env, "RELAYER_PRIVATE_KEY" | "CHAIN_ID">): `0x${string}` {
  const key = env.RELAYER_PRIVATE_KEY as `0x${string}` | undefined;
  if (env.CHAIN_ID === HARDHAT_CHAIN_ID) return key ?? HARDHAT_ACCOUNT_0_KEY;
  if (!key) throw new EnvError("RELAYER_PRIVATE_KEY: required outside the local chain 31337");
  if (isDevelopmentKey(key)) {
    throw new EnvError(
      "Invalid configuration:\n  RELAYER_PRIVATE_KEY: a key of the public development mnemonic " +
        "(Hardhat's and anvil's accounts) is accepted only on the local chain 31337",
    );
  }
  return key;
}

/** Where the API keeps its local state (the generated mnemonic, images from before they moved into the database). */
export function apiDataDir(env: Pick<Env, "DATA_DIR">): string {
  return path.join(env.DATA_DIR, "api");
}

/** BIP-39: 12 to 24 words of the English list, the last bits the checksum of the rest. */
export function isValidMnemonic(phrase: string): boolean {
  return validateMnemonic(phrase, english);
}
