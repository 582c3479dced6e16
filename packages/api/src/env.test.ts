import { thrownMessage } from "@collectibles/devkit/vitest";
import { describe, expect, it } from "vitest";
import { EnvError, isValidMnemonic, parseEnv, relayerKeyOf } from "./env.ts";
import { TEST_MNEMONIC } from "./test/constants.ts";

const failure = (source: Record<string, string>) => thrownMessage(() => parseEnv(source), EnvError);

describe("parseEnv", () => {
  it("needs no configuration: the local stack's data in <repo>/.data, port 3000 on loopback, chain 31337", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: "127.0.0.1",
      CHAIN_ID: 31337,
      NODE_ENV: "development",
      MAX_IMAGE_BYTES: 5 * 1024 * 1024,
      RATE_LIMIT_MAX: 600,
      READ_CONCURRENCY: 3,
    });
    expect(env.DATA_DIR).toMatch(/\/\.data$/);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.WALLET_MNEMONIC).toBeUndefined();
  });

  it("uses Hardhat's public account #0 as relayer key only on chain 31337", () => {
    const local = parseEnv({ RPC_URL: "http://127.0.0.1:8545" });
    expect(relayerKeyOf(local)).toMatch(/^0xac0974bec39a17e3/);
    const message = failure({ RPC_URL: "https://rpc.example.com", CHAIN_ID: "100" });
    expect(message).toContain("RELAYER_PRIVATE_KEY:");
    expect(message).not.toMatch(/0x[0-9a-f]{64}/);
    const key = `0x${"1".repeat(64)}`;
    const real = parseEnv({
      RPC_URL: "https://rpc.example.com",
      CHAIN_ID: "100",
      RELAYER_PRIVATE_KEY: key,
    });
    expect(relayerKeyOf(real)).toBe(key);
    // Keys of the development mnemonic are public: refused on every other chain, #0 and #19 alike.
    for (const publicKey of [
      "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
      "0xdf57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e",
    ]) {
      for (const chain of ["1", "100"]) {
        const refused = failure({
          RPC_URL: "https://rpc.example.com",
          CHAIN_ID: chain,
          RELAYER_PRIVATE_KEY: publicKey,
        });
        expect(refused).toContain("RELAYER_PRIVATE_KEY:");
        expect(refused).not.toContain(publicKey);
      }
      const onLocal = parseEnv({
        RPC_URL: "http://127.0.0.1:8545",
        RELAYER_PRIVATE_KEY: publicKey,
      });
      expect(relayerKeyOf(onLocal)).toBe(publicKey);
    }
    expect(failure({ RELAYER_PRIVATE_KEY: "0x1234" })).toContain("RELAYER_PRIVATE_KEY:");
    expect(failure({ CONFIRM_TIMEOUT_MS: "-1" })).toContain("CONFIRM_TIMEOUT_MS:");
  });

  it("stops with a message naming each bad variable", () => {
    const message = failure({ PORT: "eighty", DATABASE_URL: "mysql://localhost/db" });
    expect(message).toContain("PORT:");
    expect(message).toContain("DATABASE_URL:");
    expect(failure({ PORT: "70000" })).toContain("PORT:");
    expect(failure({ CHAIN_ID: "0" })).toContain("CHAIN_ID:");
    expect(failure({ LOG_LEVEL: "loud" })).toContain("LOG_LEVEL:");
    expect(failure({ PUBLIC_URL: "ftp://x" })).toContain("PUBLIC_URL:");
    expect(failure({ READ_CONCURRENCY: "0" })).toContain("READ_CONCURRENCY:");
    // More would leave claims waiting for a database connection behind reads.
    expect(failure({ READ_CONCURRENCY: "7" })).toContain("READ_CONCURRENCY:");
  });

  it("refuses an API_KEY that does not look like a key", () => {
    expect(failure({ API_KEY: "secret" })).toContain("API_KEY:");
    expect(parseEnv({ API_KEY: `ck_live_${"a".repeat(24)}` }).API_KEY).toBeDefined();
  });

  it("refuses a WALLET_MNEMONIC with a bad checksum or unknown words, without echoing it", () => {
    const bad = "test test test test test test test test test test test test";
    const message = failure({ WALLET_MNEMONIC: bad });
    expect(message).toContain("WALLET_MNEMONIC:");
    expect(message).not.toContain("test test");
    expect(failure({ WALLET_MNEMONIC: "hello world" })).toContain("WALLET_MNEMONIC:");
    expect(
      parseEnv({ WALLET_MNEMONIC: ` ${TEST_MNEMONIC.replaceAll(" ", "  ")} ` }).WALLET_MNEMONIC,
    ).toBe(TEST_MNEMONIC);
  });

  it("requires WALLET_MNEMONIC in production", () => {
    expect(failure({ NODE_ENV: "production" })).toContain("WALLET_MNEMONIC:");
    expect(parseEnv({ NODE_ENV: "production", WALLET_MNEMONIC: TEST_MNEMONIC }).NODE_ENV).toBe(
      "production",
    );
  });

  it("treats empty values as unset", () => {
    expect(
      parseEnv({ DATABASE_URL: "", API_KEY: "", PUBLIC_URL: "" }).DATABASE_URL,
    ).toBeUndefined();
  });
});

describe("isValidMnemonic", () => {
  it("checks word count, word list and checksum", () => {
    expect(isValidMnemonic(TEST_MNEMONIC)).toBe(true);
    expect(isValidMnemonic(`${TEST_MNEMONIC} test`)).toBe(false);
    expect(isValidMnemonic(TEST_MNEMONIC.replace("junk", "test"))).toBe(false);
    expect(isValidMnemonic(TEST_MNEMONIC.replace("junk", "xyzzy"))).toBe(false);
  });
});
