import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { english, generateMnemonic } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrapApiKey, loadWallets, WalletMismatchError } from "./bootstrap.ts";
import { findActiveApiKey, revokeApiKey } from "./db/apiKeys.ts";
import { parseEnv } from "./env.ts";
import { createTestDatabase, type TestDatabase } from "./test/testDatabase.ts";

let database: TestDatabase;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-bootstrap-"));
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("bootstrapApiKey", () => {
  it("creates and returns one key on the first start, then never again", async () => {
    const env = parseEnv({ DATA_DIR: dataDir });
    const first = await bootstrapApiKey(env, database.db);
    expect(first.status).toBe("created");
    expect(first.key).toMatch(/^ck_live_/);
    expect(await findActiveApiKey(database.db, first.key ?? "")).toBeDefined();
    expect(await bootstrapApiKey(env, database.db)).toEqual({ status: "existing" });
  });

  it("accepts API_KEY from the environment, and refuses it once revoked", async () => {
    const key = `ck_live_${"Z".repeat(32)}`;
    const env = parseEnv({ DATA_DIR: dataDir, API_KEY: key });
    expect(await bootstrapApiKey(env, database.db)).toEqual({ status: "from_env" });
    expect(await bootstrapApiKey(env, database.db)).toEqual({ status: "from_env" });
    const row = await findActiveApiKey(database.db, key);
    expect(row).toBeDefined();
    await revokeApiKey(database.db, row?.id ?? "");
    await expect(bootstrapApiKey(env, database.db)).rejects.toThrow(/API_KEY: .*revoked/);
  });

  it("starts every one of several processes given the same API_KEY at once, with one key", async () => {
    const key = "ck_test_startedatonce0000000000000";
    const env = parseEnv({ DATA_DIR: dataDir, API_KEY: key });
    const starts = await Promise.all(
      Array.from({ length: 4 }, () => bootstrapApiKey(env, database.db)),
    );
    expect(starts).toEqual(Array.from({ length: 4 }, () => ({ status: "from_env" })));
    expect(await findActiveApiKey(database.db, key)).toBeDefined();
  });
});

describe("loadWallets", () => {
  it("keeps a generated mnemonic in the data folder and refuses a different one later", async () => {
    const env = parseEnv({ DATA_DIR: dataDir });
    const first = await loadWallets(env, database.db);
    expect(first.created).toBe(true);
    expect(first.mnemonicFile).toBe(path.join(dataDir, "api", "mnemonic"));
    expect(fs.statSync(first.mnemonicFile ?? "").mode & 0o777).toBe(0o600);
    const again = await loadWallets(env, database.db);
    expect(again.created).toBe(false);
    expect(again.wallets.addressAt(3)).toBe(first.wallets.addressAt(3));
    await Promise.all([first.wallets.close(), again.wallets.close()]);

    const other = parseEnv({ DATA_DIR: dataDir, WALLET_MNEMONIC: generateMnemonic(english) });
    const error = await loadWallets(other, database.db).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletMismatchError);
    expect((error as Error).message).toMatch(/^WALLET_MNEMONIC: /);
    expect((error as Error).message).not.toContain(other.WALLET_MNEMONIC);
  });
});
