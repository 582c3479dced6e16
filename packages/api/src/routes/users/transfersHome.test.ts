/**
 * Moving a user's tokens home to the wallet they linked: the service's wallet for the user signs
 * the transfer and the relayer pays its gas; one token or all of them; each once, however often
 * it is asked; the chain, the claim and the feed show the new holder. A move a reorg drops is
 * sent again.
 */
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, it } from "vitest";
import {
  balanceOf,
  linkWallet,
  movesSettled,
  transactionsOnChain,
} from "../../chain/walletLink.testkit.ts";
import { chainAccounts, devAccount } from "../../test/chainAccounts.ts";
import { flowHelpers } from "../../test/chainFlow.ts";
import { until } from "../../test/faults.ts";
import { chainAppPerFile } from "../../test/perFile.ts";

const { t, stack, org } = chainAppPerFile({
  organization: "Movers home",
  env: { CONFIRM_TIMEOUT_MS: "60000" },
});
const { createCollectible, createUser } = flowHelpers(t, org);
const call: typeof t.call = (...args) => t.call(...args);
const newWallet = () => privateKeyToAccount(generatePrivateKey());
/** The relayer: the local chain's development account #0. */
const relayer = devAccount(0).address.toLowerCase();

/**
 * A user whose tokens the service keeps, with `count` confirmed claims, and whose service wallet
 * holds no ether: the local chain funds the test mnemonic's first addresses, which are skipped.
 */
async function holderWithTokens(email: string, count: number) {
  const { client } = chainAccounts(stack.rpcUrl);
  let user = await createUser(email);
  for (let skipped = 0; (await client.getBalance({ address: user.wallet_address })) > 0n; ) {
    await call("DELETE", `/users/${user.id}`);
    expect(skipped++).toBeLessThan(30);
    user = await createUser(email);
  }
  const claims: { id: string; token_id: string }[] = [];
  for (let i = 0; i < count; i++) {
    const collectible = await createCollectible({ name: `${email} #${i}`, total_count: 5 });
    const claimed = await call("POST", "/claims", {
      json: { collectible_id: collectible.id, holder_id: user.id },
    });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(201);
    claims.push(claimed.body.data);
  }
  return { user, claims };
}

/** A user with one confirmed claim in the service's wallet, and a wallet of their own linked. */
async function linkedHolderOfOne(email: string) {
  const { user, claims } = await holderWithTokens(email, 1);
  const [claim] = claims as [{ id: string; token_id: string }];
  const own = newWallet();
  await linkWallet(call, user.id, own);
  return { user, claim, own };
}

const holderOf = async (claimId: string) =>
  (await call("GET", `/claims/${claimId}`)).body.data.holder_wallet_address as string;

it("refuses moving without a linked wallet (no_linked_wallet) or a token not in the service's wallet, and answers a claim moved home already with its move", async () => {
  const { user, claims } = await holderWithTokens("unlinked@example.com", 1);
  const unlinked = await call("POST", `/users/${user.id}/transfers-home`, { json: {} });
  expect(unlinked.status, JSON.stringify(unlinked.body)).toBe(422);
  expect(unlinked.body.error.code).toBe("no_linked_wallet");
  await linkWallet(call, user.id, newWallet());
  const someoneElse = await holderWithTokens("not-theirs@example.com", 1);
  const notTheirs = await call("POST", `/users/${user.id}/transfers-home`, {
    json: { claim_id: someoneElse.claims[0]?.id },
  });
  expect(notTheirs.status).toBe(404);
  expect(notTheirs.body.error.code).toBe("claim_not_found");
  const moved = await call("POST", `/users/${user.id}/transfers-home`, {
    json: { claim_id: claims[0]?.id },
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(202);
  await movesSettled(call, user.id);
  await until("the holder followed", async () =>
    (await holderOf(claims[0]?.id ?? "")) !== user.wallet_address ? true : undefined,
  );
  // Asked again once the follower has the token at the linked wallet: the same move, as a
  // request arriving before the follower gets (another process may be that late).
  const again = await call("POST", `/users/${user.id}/transfers-home`, {
    json: { claim_id: claims[0]?.id },
  });
  expect(again.status, JSON.stringify(again.body)).toBe(202);
  expect(again.body.data.map((move: { id: string }) => move.id)).toEqual([moved.body.data[0].id]);
  const everything = await call("POST", `/users/${user.id}/transfers-home`, { json: {} });
  expect(everything.status, JSON.stringify(everything.body)).toBe(422);
  expect(everything.body.error.code).toBe("token_not_in_service_wallet");
}, 180_000);

it("moves one claim's token home: the chain shows the linked wallet as owner, the claim its new holder, the feed claim.transferred", async () => {
  const { user, claims } = await holderWithTokens("one-home@example.com", 2);
  const [moving, staying] = claims as [
    { id: string; token_id: string },
    { id: string; token_id: string },
  ];
  const own = newWallet();
  await linkWallet(call, user.id, own);
  const res = await call("POST", `/users/${user.id}/transfers-home`, {
    json: { claim_id: moving.id },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body.data).toHaveLength(1);
  expect(res.body.data[0]).toMatchObject({
    claim_id: moving.id,
    token_id: moving.token_id,
    from_address: user.wallet_address,
    to_address: own.address,
  });
  const [done] = await movesSettled(call, user.id);
  expect(done).toMatchObject({ claim_id: moving.id, status: "confirmed" });
  expect((done as unknown as { transaction_hash: string }).transaction_hash).toMatch(/^0x/);

  const { client } = chainAccounts(stack.rpcUrl);
  expect(await balanceOf(client, stack.contract, own.address, moving.token_id)).toBe(1n);
  expect(await balanceOf(client, stack.contract, user.wallet_address, moving.token_id)).toBe(0n);
  expect(await balanceOf(client, stack.contract, user.wallet_address, staying.token_id)).toBe(1n);

  await until("the claim's holder is the linked wallet", async () =>
    (await holderOf(moving.id)) === own.address ? true : undefined,
  );
  expect(await holderOf(staying.id)).toBe(user.wallet_address);
  const feed = await call("GET", "/events?limit=100");
  const transferred = feed.body.data.filter(
    (e: { type: string; data: { id: string } }) =>
      e.type === "claim.transferred" && e.data.id === moving.id,
  );
  expect(transferred).toHaveLength(1);
  // Still the user's: the linked wallet is theirs.
  expect(transferred[0].data).toMatchObject({
    holder_wallet_address: own.address,
    holder_id: user.id,
    claimed_by_id: user.id,
  });
}, 180_000);

it("moves all the user's tokens home in one request, the relayer paying the gas", async () => {
  const { user, claims } = await holderWithTokens("all-home@example.com", 3);
  const own = newWallet();
  await linkWallet(call, user.id, own);
  const res = await call("POST", `/users/${user.id}/transfers-home`, { json: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body.data.map((move: { claim_id: string }) => move.claim_id).sort()).toEqual(
    claims.map((claim) => claim.id).sort(),
  );
  const moves = await movesSettled(call, user.id);
  expect(moves.map((move) => move.status)).toEqual(["confirmed", "confirmed", "confirmed"]);
  const { client } = chainAccounts(stack.rpcUrl);
  for (const claim of claims) {
    expect(await balanceOf(client, stack.contract, own.address, claim.token_id)).toBe(1n);
  }
  // One transaction signed by the service wallet, funded by one payment from the relayer.
  const txs = await transactionsOnChain(client);
  const derived = user.wallet_address.toLowerCase();
  expect(txs.filter((tx) => tx.from.toLowerCase() === derived)).toHaveLength(1);
  const payments = txs.filter((tx) => tx.to?.toLowerCase() === derived);
  expect(payments).toHaveLength(1);
  expect(payments[0]?.from.toLowerCase()).toBe(relayer);
  // Gas at most the fee it was funded for: what is left is less than what was paid in.
  const left = await client.getBalance({ address: user.wallet_address as Address });
  expect(left).toBeLessThan(payments[0]?.value ?? 0n);
  for (const claim of claims) {
    await until("every holder followed", async () =>
      (await holderOf(claim.id)) === own.address ? true : undefined,
    );
  }
}, 180_000);

it("moves each token once under repeated requests: one Idempotency-Key replays its answer, a request without one finds the move", async () => {
  const { user, claim, own } = await linkedHolderOfOne("retry-home@example.com");
  const path = `/users/${user.id}/transfers-home`;
  const headers = { "idempotency-key": `home-${user.id}` };
  const [first, second, bare] = await Promise.all([
    call("POST", path, { json: { claim_id: claim.id }, headers }),
    call("POST", path, { json: { claim_id: claim.id }, headers }),
    call("POST", path, { json: { claim_id: claim.id } }),
  ]);
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  expect(second.status).toBe(202);
  expect(second.body).toEqual(first.body);
  const replayed = [first, second].filter((r) => r.headers.get("idempotent-replayed") === "true");
  expect(replayed).toHaveLength(1);
  // Stored beside the first, or after it: the move under way is answered, never a second one.
  expect(bare.status, JSON.stringify(bare.body)).toBe(202);
  expect(bare.body.data[0].id).toBe(first.body.data[0].id);
  const later = await call("POST", path, { json: { claim_id: claim.id }, headers });
  expect(later.body).toEqual(first.body);

  const moves = await movesSettled(call, user.id);
  expect(moves).toHaveLength(1);
  const { client } = chainAccounts(stack.rpcUrl);
  expect(await balanceOf(client, stack.contract, own.address, claim.token_id)).toBe(1n);
  const txs = await transactionsOnChain(client);
  const derived = (user.wallet_address as Address).toLowerCase();
  expect(txs.filter((tx) => tx.from.toLowerCase() === derived)).toHaveLength(1);
}, 180_000);

it("mints new claims straight to the linked wallet when the organization asks for it (claims_to_linked_wallet)", async () => {
  const made = await call("POST", "/organizations", {
    json: { name: "Straight home", claims_to_linked_wallet: true },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.data.claims_to_linked_wallet).toBe(true);
  const orgId: string = made.body.data.id;
  const claimOf = async (holderId: string, name: string) => {
    const collectible = await call("POST", "/collectibles", {
      json: { organization_id: orgId, name, total_count: 5 },
    });
    expect(collectible.status, JSON.stringify(collectible.body)).toBe(201);
    const claimed = await call("POST", "/claims", {
      json: { collectible_id: collectible.body.data.id, holder_id: holderId },
    });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(201);
    return claimed.body.data;
  };
  const user = (
    await call("POST", "/users", { json: { organization_id: orgId, email: "direct@example.com" } })
  ).body.data;
  // Without a linked wallet the service's wallet holds it, as always.
  expect((await claimOf(user.id, "Before linking")).minted_to).toBe(user.wallet_address);
  const own = newWallet();
  await linkWallet(call, user.id, own);
  const direct = await claimOf(user.id, "Straight");
  expect(direct).toMatchObject({
    minted_to: own.address,
    holder_wallet_address: own.address,
    holder_id: user.id,
    claimed_by_id: user.id,
  });
  const { client } = chainAccounts(stack.rpcUrl);
  expect(await balanceOf(client, stack.contract, own.address, direct.token_id)).toBe(1n);
  const off = await call("PATCH", `/organizations/${orgId}`, {
    json: { claims_to_linked_wallet: false },
  });
  expect(off.body.data.claims_to_linked_wallet).toBe(false);
  expect((await claimOf(user.id, "Setting off")).minted_to).toBe(user.wallet_address);
}, 180_000);

it("sends a move again when a reorg drops it: the token ends at the linked wallet and the move confirmed on the chain as it is now", async () => {
  const { user, claim, own } = await linkedHolderOfOne("reorged-home@example.com");
  const res = await call("POST", `/users/${user.id}/transfers-home`, {
    json: { claim_id: claim.id },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const [first] = (await movesSettled(call, user.id)) as unknown as {
    status: string;
    transaction_hash: `0x${string}`;
  }[];
  expect(first?.status).toBe("confirmed");
  const { client } = chainAccounts(stack.rpcUrl);
  const receipt = await client.getTransactionReceipt({ hash: first?.transaction_hash ?? "0x" });
  // The move's block is the head: replace it with an empty one, the transfer dropped.
  expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(receipt.blockNumber);
  await client.request({ method: "anvil_reorg", params: [1, []] } as never);
  await client.request({ method: "evm_mine", params: [] } as never);
  expect(await balanceOf(client, stack.contract, own.address, claim.token_id)).toBe(0n);

  await until(
    "the token at the linked wallet again",
    async () =>
      (await balanceOf(client, stack.contract, own.address, claim.token_id)) === 1n
        ? true
        : undefined,
    { timeoutMs: 60_000 },
  );
  const [again] = (await movesSettled(call, user.id)) as unknown as {
    status: string;
    transaction_hash: `0x${string}`;
  }[];
  expect(again?.status).toBe("confirmed");
  const now = await client.getTransactionReceipt({ hash: again?.transaction_hash ?? "0x" });
  expect(now.status).toBe("success");
  expect(await balanceOf(client, stack.contract, user.wallet_address, claim.token_id)).toBe(0n);
  await until("the claim's holder is the linked wallet", async () =>
    (await holderOf(claim.id)) === own.address ? true : undefined,
  );
}, 180_000);
