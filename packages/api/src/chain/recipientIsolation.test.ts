/**
 * One recipient decides only its own claim, end to end: the API stores the claims, the relayer
 * sends them in one `claimBatch`, the contract skips the refusing and the gas-burning recipients,
 * the indexer records the rest. The refused claims end `failed` with their reason, in the same
 * transaction as the others (nothing re-sent), and the API, the indexer, `editionOf` and `uri()`
 * agree on counts and editions, also when a recipient holding the minter role claims again from
 * its hook, and when a plain account later delegates to a refusing contract (EIP-7702).
 */
import {
  claimBatchGasCeiling,
  collectiblesAbi,
  tokenIdOf,
  uuidToBytes16,
} from "@collectibles/contracts";
import {
  deployIsolationRecipients,
  nonReceiverMock,
  reentrantMinterMock,
} from "@collectibles/contracts/testing";
import { createIndexerReader } from "@collectibles/indexer/reader";
import { type Address, type Hex, keccak256, type PublicClient, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChainAccounts, devAccount } from "../test/chainAccounts.ts";
import type { TestApp } from "../test/testApp.ts";
import {
  type ApiClaim,
  type AppOnChain,
  claimTogether,
  finalClaims,
  startAppOnChain,
} from "./recipientIsolation.testkit.ts";

/** Enough for the re-entrant recipient's hook, which claims once more (about 150,000 gas). */
const HOOK_GAS_BUDGET = 1_000_000n;
const TIMEOUT = 180_000;

let app: AppOnChain | undefined;
let t: TestApp;
let client: PublicClient;
let contract: Address;
let indexerUrl: string;
let org: { id: string };
/** A recipient holding the minter role, granted before the relayer (account #0) starts. */
let reentrant: Address;

let on: ChainAccounts;
const account = devAccount;
const walletOf = (index: number) => on.walletOf(index);
const deployFrom: ChainAccounts["deployFrom"] = (...args) => on.deployFrom(...args);
const rpc = (method: string, params: unknown[] = []) => on.rpc(method, params);

beforeAll(async () => {
  app = await startAppOnChain({
    hookGasBudget: HOOK_GAS_BUDGET,
    // Answer 202 at once: the tests hold the chain still while they store claims.
    env: { CONFIRM_TIMEOUT_MS: "0" },
    async beforeRelayer(accounts, deployed) {
      reentrant = await accounts.deployFrom(10, reentrantMinterMock, [deployed]);
      await accounts.client.waitForTransactionReceipt({
        hash: await accounts.walletOf(0).writeContract({
          address: deployed,
          abi: collectiblesAbi,
          functionName: "grantRole",
          args: [keccak256(toHex("MINTER_ROLE")), reentrant],
        }),
      });
    },
  });
  ({ t, on, contract, indexerUrl } = app);
  client = on.client;
  org = (await t.call("POST", "/organizations", { json: { name: "Isolation Co" } })).body.data;
}, 180_000);

afterAll(() => app?.stop());

async function createUser(email: string, wallet?: Address) {
  const res = await t.call("POST", "/users", {
    json: { organization_id: org.id, email, ...(wallet ? { wallet_address: wallet } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; wallet_address: Address };
}

/** The API's editions of the confirmed claims against the indexer's, `editionOf` and `uri()`. */
async function expectEditionsAgree(collectibleId: string, confirmed: ApiClaim[]) {
  const reader = createIndexerReader({ url: indexerUrl });
  const indexed = new Map(
    (await reader.claimsOfCollectible(collectibleId)).map((row) => [row.id, row.edition]),
  );
  for (const claim of confirmed) {
    const tokenId = tokenIdOf(collectibleId, claim.id);
    const read = { address: contract, abi: collectiblesAbi } as const;
    const edition = await client.readContract({
      ...read,
      functionName: "editionOf",
      args: [tokenId],
    });
    const uri = await client.readContract({ ...read, functionName: "uri", args: [tokenId] });
    const json = JSON.parse(Buffer.from(uri.split(",")[1] ?? "", "base64").toString("utf8"));
    expect(BigInt(claim.edition ?? 0), `API edition of ${claim.id}`).toBe(edition);
    expect(indexed.get(claim.id), `indexer edition of ${claim.id}`).toBe(edition);
    expect(json.name).toBe(`Isolated #${edition}`);
  }
  const editions = confirmed.map((c) => c.edition).sort((a, b) => Number(a) - Number(b));
  expect(editions).toEqual(confirmed.map((_, i) => i + 1));
  const onChain = await client.readContract({
    address: contract,
    abi: collectiblesAbi,
    functionName: "claimedCount",
    args: [uuidToBytes16(collectibleId)],
  });
  expect(onChain).toBe(BigInt(confirmed.length));
  expect((await reader.getCollectible(collectibleId))?.claimedCount).toBe(onChain);
  const api = (await t.call("GET", `/collectibles/${collectibleId}`)).body.data;
  expect(api.claimed_count).toBe(confirmed.length);
}

describe("claims to recipients that refuse", () => {
  it(
    "fails the refusing and the gas-burning recipient's claims with their reasons in the one batch, and confirms the others with the chain's editions, a claim from a recipient's hook included",
    async () => {
      const { refusing, burner, accepting } = await deployIsolationRecipients((mock, args) =>
        deployFrom(10, mock, [...args]),
      );
      const holders = [
        await createUser("plain-1@isolation.example"),
        await createUser("refuses@isolation.example", refusing),
        await createUser("reenters@isolation.example", reentrant),
        await createUser("burns@isolation.example", burner),
        await createUser("accepts@isolation.example", accepting),
        await createUser("plain-2@isolation.example"),
      ];
      const before = await client.getTransactionCount({ address: account(0).address });
      const { collectibleId, claims } = await claimTogether(
        { t, organizationId: org.id, rpc },
        10,
        holders,
        async (stored, id) => {
          // From its hook, the minter recipient claims the last holder's claim on the chain first.
          const last = stored[5];
          if (!last) throw new Error("no claims");
          const hash = await walletOf(11).writeContract({
            address: reentrant,
            abi: reentrantMinterMock.abi,
            functionName: "arm",
            args: [uuidToBytes16(id), uuidToBytes16(last.id), last.minted_to, false, false],
          });
          expect(hash).toMatch(/^0x/);
        },
      );

      const rows = await finalClaims(
        t,
        claims.map((c) => c.id),
      );
      const [plain1, refused, reentered, burnt, accepted, plain2] = rows;
      expect(refused).toMatchObject({ status: "failed", failure_reason: "recipient_refused" });
      expect(burnt).toMatchObject({ status: "failed", failure_reason: "recipient_gas_exceeded" });
      for (const row of [plain1, reentered, accepted, plain2]) {
        expect(row).toMatchObject({ status: "confirmed", failure_reason: null });
      }
      // One batch for all six: the refusals did not make the relayer send anyone's claim again.
      const batchHash = plain1?.transaction_hash;
      expect(batchHash).toMatch(/^0x[0-9a-f]{64}$/);
      for (const row of rows) expect(row.transaction_hash, row.id).toBe(batchHash);
      expect(await client.getTransactionCount({ address: account(0).address })).toBe(before + 2);
      const tx = await client.getTransaction({ hash: batchHash as Hex });
      expect(tx.gas).toBeLessThanOrEqual(claimBatchGasCeiling(6, HOOK_GAS_BUDGET));

      // Editions as the chain numbered them: the hook's claim (the last holder's) came second.
      expect([plain1, reentered, plain2, accepted].map((row) => row?.edition)).toEqual([
        1, 2, 3, 4,
      ]);
      await expectEditionsAgree(collectibleId, [plain1, reentered, accepted, plain2] as ApiClaim[]);

      const collectible = (await t.call("GET", `/collectibles/${collectibleId}`)).body.data;
      expect(collectible).toMatchObject({ claimed_count: 4, available_count: 6 });
    },
    TIMEOUT,
  );

  it(
    "fails the claim of an account that delegated to a refusing contract (EIP-7702) after registering as a plain account, and confirms the others",
    async () => {
      const user = account(12);
      const refusing = await deployFrom(10, nonReceiverMock, []);
      const holders = [
        await createUser("delegates@isolation.example", user.address),
        await createUser("plain-3@isolation.example"),
        await createUser("plain-4@isolation.example"),
      ];
      // The account becomes a refusing contract after the user registered it.
      const wallet = walletOf(12);
      const authorization = await wallet.signAuthorization({
        contractAddress: refusing,
        executor: "self",
      });
      const hash = await wallet.sendTransaction({
        authorizationList: [authorization],
        to: account(13).address,
      });
      await client.waitForTransactionReceipt({ hash });
      expect(await client.getCode({ address: user.address })).toBe(
        `0xef0100${refusing.slice(2).toLowerCase()}`,
      );

      const { collectibleId, claims } = await claimTogether(
        { t, organizationId: org.id, rpc },
        3,
        holders,
      );
      const [delegated, plain3, plain4] = await finalClaims(
        t,
        claims.map((c) => c.id),
      );
      expect(delegated).toMatchObject({ status: "failed", failure_reason: "recipient_refused" });
      expect(plain3).toMatchObject({ status: "confirmed", edition: 1 });
      expect(plain4).toMatchObject({ status: "confirmed", edition: 2 });
      expect(delegated?.transaction_hash).toBe(plain3?.transaction_hash);
      await expectEditionsAgree(collectibleId, [plain3, plain4] as ApiClaim[]);
      // Its place went back to the supply: the collectible has one claimable edition left.
      const collectible = (await t.call("GET", `/collectibles/${collectibleId}`)).body.data;
      expect(collectible).toMatchObject({ claimed_count: 2, available_count: 1 });
    },
    TIMEOUT,
  );
});
