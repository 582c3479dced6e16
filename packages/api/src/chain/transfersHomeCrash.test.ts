/**
 * A move home survives its API process dying between the funding and the transfer: the real API
 * entry runs as a child process, the chain mines only when the test says so, and the process is
 * killed with SIGKILL once the relayer's payment to the service wallet is mined and the wallet's
 * transfer is broadcast. Started again, the API moves the token exactly once and pays nothing
 * more: the wallet was funded already, and whether the token still has to move is read from the
 * chain, also when the earlier transfer is mined between the new process's reads. Two processes
 * asked at once store one move and send once.
 */
import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, it } from "vitest";
import { type ApiProcess, apiProcessesOnChainPerFile, crash, jsonOf } from "../test/apiProcess.ts";
import { chainAccounts } from "../test/chainAccounts.ts";
import { startRpcInterceptor } from "../test/chainStack.ts";
import { until } from "../test/faults.ts";
import { balanceOf, transactionsOnChain } from "./walletLink.testkit.ts";

const API_KEY = "ck_test_transfershomecrash0123456789";

const { start, call, createCollectible, stack } = apiProcessesOnChainPerFile({
  name: "home-crash",
  apiKey: API_KEY,
});

interface Holder {
  api: ApiProcess;
  userId: string;
  derived: Address;
  claimId: string;
  tokenId: string;
  own: Address;
}

/** An API process, and a user with one confirmed token in an empty service wallet, linked. */
async function linkedHolder(name: string): Promise<Holder> {
  const api = await start();
  const { client } = chainAccounts(stack.rpcUrl);
  const org = await jsonOf(await call(api.url, "POST", "/organizations", { name }));
  const made = await jsonOf(await createCollectible(api.url, org.data.id, name, 3));
  const confirmed = async (path: string) =>
    until(`${path} confirmed`, async () => {
      const res = await jsonOf(await call(api.url, "GET", path));
      return res.data.status === "confirmed" ? res.data : undefined;
    });
  await confirmed(`/collectibles/${made.data.id}`);
  // The local chain funds the test mnemonic's first addresses: skip to an empty wallet.
  let user: { id: string; wallet_address: Address };
  for (;;) {
    const json = { organization_id: org.data.id, email: `${name}@example.com` };
    user = (await jsonOf(await call(api.url, "POST", "/users", json))).data;
    if ((await client.getBalance({ address: user.wallet_address })) === 0n) break;
    await call(api.url, "DELETE", `/users/${user.id}`);
  }
  const claimed = await jsonOf(
    await call(api.url, "POST", "/claims", { collectible_id: made.data.id, holder_id: user.id }),
  );
  const claim = await confirmed(`/claims/${claimed.data.id}`);
  const own = privateKeyToAccount(generatePrivateKey());
  const issued = await jsonOf(
    await call(api.url, "POST", `/users/${user.id}/wallet-link-nonces`, { address: own.address }),
  );
  const message: string = issued.data.message;
  const linked = await call(api.url, "POST", `/users/${user.id}/wallet-link`, {
    message,
    signature: await own.signMessage({ message }),
  });
  expect(linked.status).toBe(200);
  return {
    api,
    userId: user.id,
    derived: user.wallet_address,
    claimId: claim.id,
    tokenId: claim.token_id,
    own: own.address,
  };
}

/**
 * A linked holder whose API process asked for the move with the chain mining only on request:
 * the relayer's payment mined, the service wallet's transfer broadcast, then the process killed
 * (SIGKILL).
 */
async function holderKilledAfterFunding(name: string): Promise<Holder> {
  const holder = await linkedHolder(name);
  const on = chainAccounts(stack.rpcUrl);
  await on.rpc("evm_setAutomine", [false]);
  const asked = await call(holder.api.url, "POST", `/users/${holder.userId}/transfers-home`, {
    claim_id: holder.claimId,
  });
  expect(asked.status).toBe(202);
  await until("the relayer's payment broadcast", async () =>
    (await on.client.getBalance({ address: holder.derived, blockTag: "pending" })) > 0n
      ? true
      : undefined,
  );
  await on.rpc("evm_mine");
  expect(await on.client.getBalance({ address: holder.derived })).toBeGreaterThan(0n);
  await until("the service wallet's transfer broadcast", async () =>
    (await on.client.getTransactionCount({ address: holder.derived, blockTag: "pending" })) > 0
      ? true
      : undefined,
  );
  await crash(holder.api.process);
  return holder;
}

/** Once started again: the token moved once, paid for by one payment. */
async function expectMovedOnce(holder: Holder, api: ApiProcess): Promise<void> {
  const on = chainAccounts(stack.rpcUrl);
  const moves = await until("the move settled", async () => {
    const res = await jsonOf(await call(api.url, "GET", `/users/${holder.userId}/transfers-home`));
    const settled = (move: { status: string }) => ["confirmed", "failed"].includes(move.status);
    return res.data.every(settled) ? res.data : undefined;
  });
  expect(moves).toHaveLength(1);
  expect(moves[0]).toMatchObject({ status: "confirmed", failure_reason: null });
  expect(await balanceOf(on.client, stack.contract, holder.own, holder.tokenId)).toBe(1n);
  expect(await balanceOf(on.client, stack.contract, holder.derived, holder.tokenId)).toBe(0n);
  const txs = await transactionsOnChain(on.client);
  const derived = holder.derived.toLowerCase();
  expect(txs.filter((tx) => tx.from.toLowerCase() === derived)).toHaveLength(1);
  expect(txs.filter((tx) => tx.to?.toLowerCase() === derived)).toHaveLength(1);
  await until("the claim's holder is the linked wallet", async () => {
    const claim = await jsonOf(await call(api.url, "GET", `/claims/${holder.claimId}`));
    return claim.data.holder_wallet_address === holder.own ? true : undefined;
  });
}

it("killed after the funding is mined and before its transfer reaches the chain, the API moves the token once and pays nothing more", async () => {
  const holder = await holderKilledAfterFunding("never-broadcast");
  // The transfer never reached a block: as if the process died before broadcasting it.
  const on = chainAccounts(stack.rpcUrl);
  await on.rpc("anvil_dropAllTransactions");
  await on.rpc("evm_setAutomine", [true]);
  const again = await start();
  await expectMovedOnce(holder, again);
  await crash(again.process);
}, 300_000);

it("killed with its transfer still unmined, the API started again does not send a second one", async () => {
  const holder = await holderKilledAfterFunding("still-pending");
  const again = await start();
  // The new process finds the token still in the wallet and the first transfer unmined: it may
  // only replace it (same nonce), never add one. Then the chain mines.
  const on = chainAccounts(stack.rpcUrl);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const queued = await on.client.getTransactionCount({
    address: holder.derived,
    blockTag: "pending",
  });
  expect(queued).toBe(1);
  await on.rpc("evm_setAutomine", [true]);
  await on.rpc("evm_mine");
  await expectMovedOnce(holder, again);
  await crash(again.process);
}, 300_000);

it("started again as its earlier transfer is mined, between the API's reads of the chain, the API confirms the move and sends nothing", async () => {
  const holder = await holderKilledAfterFunding("mined-meanwhile");
  const on = chainAccounts(stack.rpcUrl);
  const derived = holder.derived.toLowerCase();
  // The earlier transfer is mined just as the new process asks the chain for the wallet's nonces:
  // what it read of the chain before then no longer holds.
  let mined = false;
  const rpc = await startRpcInterceptor(stack.rpcUrl, async (calls) => {
    const asksNonce = calls.some(
      (c) =>
        c.method === "eth_getTransactionCount" && String(c.params?.[0]).toLowerCase() === derived,
    );
    if (asksNonce && !mined) {
      mined = true;
      await on.rpc("evm_mine");
    }
  });
  try {
    const again = await start({ RPC_URL: rpc.url });
    await expectMovedOnce(holder, again);
    expect(mined).toBe(true);
    await crash(again.process);
  } finally {
    await on.rpc("evm_setAutomine", [true]);
    await rpc.close();
  }
}, 300_000);

it("two API processes asked at once store one move and send one transfer", async () => {
  const holder = await linkedHolder("two-processes");
  const other = await start();
  const path = `/users/${holder.userId}/transfers-home`;
  const answers = await Promise.all(
    [holder.api, other].map(async (api) =>
      jsonOf(await call(api.url, "POST", path, { claim_id: holder.claimId })),
    ),
  );
  const moveIds = answers.map((answer) => answer.data?.[0]?.id ?? JSON.stringify(answer));
  expect(moveIds[0]).toBeDefined();
  expect(moveIds[1]).toBe(moveIds[0]);
  await expectMovedOnce(holder, other);
}, 300_000);
