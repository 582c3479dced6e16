import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import { mnemonicToSeedSync } from "@scure/bip39";
import { toHex } from "viem";
import {
  english,
  generateMnemonic,
  HDKey,
  mnemonicToAccount,
  privateKeyToAddress,
} from "viem/accounts";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { isValidMnemonic } from "../env.ts";
import { TEST_MNEMONIC } from "../test/constants.ts";
import { accountNodeOf, addressOf } from "./derive.ts";
import { createWallets, loadOrCreateMnemonic } from "./wallets.ts";

describe("createWallets", () => {
  it("derives m/44'/60'/0'/0/<index> like every BIP-44 wallet", () => {
    const wallets = createWallets(TEST_MNEMONIC);
    // Hardhat's first two development accounts.
    expect(wallets.addressAt(0)).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(wallets.addressAt(1)).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    const other = generateMnemonic(english);
    expect(createWallets(other).addressAt(7)).toBe(
      mnemonicToAccount(other, { addressIndex: 7 }).address,
    );
    expect(wallets.fingerprint).toBe(wallets.addressAt(0));
  });

  it("derives from the account's public key the address a full derivation from the seed gives, at any index", () => {
    const mnemonic = generateMnemonic(english);
    const wallets = createWallets(mnemonic);
    const seed = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
    for (const index of [2, 3, 255, 256, 65_536, 1_000_003, 2 ** 31 - 1]) {
      const key = seed.derive(`m/44'/60'/0'/0/${index}`).privateKey;
      if (!key) throw new Error("no private key");
      expect(wallets.addressAt(index)).toBe(privateKeyToAddress(toHex(key)));
    }
  });

  it("holds the mnemonic out of reach of serialisation", () => {
    const wallets = createWallets(TEST_MNEMONIC);
    expect(JSON.stringify(wallets)).not.toContain("junk");
    expect(inspect(wallets, { depth: 10, showHidden: true })).not.toContain("junk");
  });

  it("derives the addresses after the highest asked for ahead of need, as on demand", async () => {
    const wallets = createWallets(TEST_MNEMONIC, { ahead: 100 });
    // Test files share worker processes: the address worker must not outlive this test.
    onTestFinished(() => wallets.close());
    const onDemand = createWallets(TEST_MNEMONIC);
    wallets.prepareFrom(500);
    await vi.waitFor(() => expect(wallets.has(599)).toBe(true), { timeout: 30_000 });
    expect(wallets.has(600)).toBe(false);
    const indexes = Array.from({ length: 100 }, (_, offset) => 500 + offset);
    expect(indexes.map((index) => wallets.addressAt(index))).toEqual(
      indexes.map((index) => onDemand.addressAt(index)),
    );
    // Asking past the middle of what is ready has the next ones prepared.
    expect(wallets.has(649)).toBe(false);
    await vi.waitFor(() => expect(wallets.has(649)).toBe(true), { timeout: 30_000 });
  });

  it("stops the address worker once it has been idle, and starts another for the next range", async () => {
    const wallets = createWallets(TEST_MNEMONIC, { ahead: 100, idleMs: 0 });
    onTestFinished(() => wallets.close());
    expect(wallets.workerRunning()).toBe(false);
    wallets.prepareFrom(1_000);
    expect(wallets.workerRunning()).toBe(true);
    await vi.waitFor(() => expect(wallets.has(1_099)).toBe(true), { timeout: 30_000 });
    await vi.waitFor(() => expect(wallets.workerRunning()).toBe(false));
    wallets.addressAt(1_060);
    expect(wallets.workerRunning()).toBe(true);
    await vi.waitFor(() => expect(wallets.has(1_160)).toBe(true), { timeout: 30_000 });
    expect(wallets.addressAt(1_160)).toBe(createWallets(TEST_MNEMONIC).addressAt(1_160));
    // Asking for 1,160 asked for the range after it: the worker stops once that is derived.
    await vi.waitFor(() => expect(wallets.workerRunning()).toBe(false), { timeout: 30_000 });
  });

  it("keeps the address worker for its idle time after its last range", async () => {
    const wallets = createWallets(TEST_MNEMONIC, { ahead: 100, idleMs: 60_000 });
    onTestFinished(() => wallets.close());
    wallets.prepareFrom(1_000);
    await vi.waitFor(() => expect(wallets.has(1_099)).toBe(true), { timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(wallets.workerRunning()).toBe(true);
  });

  it("refuses indexes outside the non-hardened range", () => {
    const wallets = createWallets(TEST_MNEMONIC);
    const account = accountNodeOf(HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_MNEMONIC)));
    for (const index of [-1, 1.5, 2 ** 31, 2 ** 32]) {
      expect(() => addressOf(account, index)).toThrow(RangeError);
    }
    expect(() => wallets.addressAt(-1)).toThrow(RangeError);
    expect(() => wallets.addressAt(2 ** 31)).toThrow(RangeError);
  });
});

describe("loadOrCreateMnemonic", () => {
  it("generates a valid mnemonic into a 0600 file once, then reads it back", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-mnemonic-"));
    try {
      const file = path.join(dir, "nested", "mnemonic");
      const first = loadOrCreateMnemonic(file);
      expect(first.created).toBe(true);
      expect(isValidMnemonic(first.mnemonic)).toBe(true);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const second = loadOrCreateMnemonic(file);
      expect(second).toEqual({ mnemonic: first.mnemonic, created: false });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
