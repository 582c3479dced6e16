import { describe, expect, it } from "vitest";
import { EnvError, isValidMnemonic, parseEnv } from "./env.ts";
import { TEST_MNEMONIC } from "./test/constants.ts";

const failure = (source: Record<string, string>) => {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be refused");
};

describe("parseEnv", () => {
  it("needs no configuration: PGlite in <repo>/.data, port 3000 on loopback, chain 31337", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: "127.0.0.1",
      CHAIN_ID: 31337,
      NODE_ENV: "development",
      MAX_IMAGE_BYTES: 5 * 1024 * 1024,
      RATE_LIMIT_MAX: 600,
    });
    expect(env.DATA_DIR).toMatch(/\/\.data$/);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.WALLET_MNEMONIC).toBeUndefined();
  });

  it("stops with a message naming each bad variable", () => {
    const message = failure({ PORT: "eighty", DATABASE_URL: "mysql://localhost/db" });
    expect(message).toContain("PORT:");
    expect(message).toContain("DATABASE_URL:");
    expect(failure({ PORT: "70000" })).toContain("PORT:");
    expect(failure({ CHAIN_ID: "0" })).toContain("CHAIN_ID:");
    expect(failure({ LOG_LEVEL: "loud" })).toContain("LOG_LEVEL:");
    expect(failure({ PUBLIC_URL: "ftp://x" })).toContain("PUBLIC_URL:");
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
